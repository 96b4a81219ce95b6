import { TextField } from "@radix-ui/themes";
import { EnvelopeClosedIcon } from "@radix-ui/react-icons";
import type { Ref } from "react";

interface EmailInputProps {
  id: string;
  value: string;
  onChange(value: string): void;
  placeholder: string;
  autoFocus?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

/** The e-mail box every form uses: type, autocomplete and the envelope icon in one place. */
export function EmailInput({ id, value, onChange, placeholder, autoFocus, inputRef }: EmailInputProps) {
  return (
    <TextField.Root
      ref={inputRef}
      id={id}
      name="email"
      type="email"
      required
      autoFocus={autoFocus}
      size="3"
      autoComplete="email"
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    >
      <TextField.Slot>
        <EnvelopeClosedIcon aria-hidden />
      </TextField.Slot>
    </TextField.Root>
  );
}
