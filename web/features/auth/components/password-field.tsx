import { EyeClosedIcon, EyeOpenIcon, LockClosedIcon } from "@radix-ui/react-icons";
import { IconButton, TextField } from "@radix-ui/themes";
import { useState } from "react";

export interface PasswordFieldProps {
  id: string;
  value: string;
  onChange(value: string): void;
  autoComplete: "current-password" | "new-password";
  minLength?: number;
  placeholder?: string;
  /** Id of a hint the input should announce. */
  describedBy?: string;
}

/** Password input with a show/hide toggle (spec §4 "Password visibility"). */
export function PasswordField({ id, value, onChange, autoComplete, minLength, placeholder, describedBy }: PasswordFieldProps) {
  const [shown, setShown] = useState(false);
  return (
    <TextField.Root
      id={id}
      name="password"
      type={shown ? "text" : "password"}
      required
      size="3"
      minLength={minLength}
      autoComplete={autoComplete}
      placeholder={placeholder}
      aria-describedby={describedBy}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    >
      <TextField.Slot>
        <LockClosedIcon aria-hidden />
      </TextField.Slot>
      <TextField.Slot side="right">
        <IconButton
          type="button"
          size="2"
          variant="ghost"
          color="gray"
          aria-label={shown ? "Hide password" : "Show password"}
          aria-pressed={shown}
          aria-controls={id}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? <EyeClosedIcon aria-hidden /> : <EyeOpenIcon aria-hidden />}
        </IconButton>
      </TextField.Slot>
    </TextField.Root>
  );
}
