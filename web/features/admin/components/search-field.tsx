import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { TextField } from "@radix-ui/themes";

/** The search box above a searchable console list (users, everyone's API keys). */
export function SearchField({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange(q: string): void;
}) {
  return (
    <TextField.Root placeholder={placeholder} aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} mb="3">
      <TextField.Slot>
        <MagnifyingGlassIcon />
      </TextField.Slot>
    </TextField.Root>
  );
}
