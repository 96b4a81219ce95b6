import { EnvelopeClosedIcon } from "@radix-ui/react-icons";
import { Button, Flex, TextField, VisuallyHidden } from "@radix-ui/themes";
import { type FormEvent, useId, useState } from "react";
import type { WaitlistSource } from "../api";
import { useBetaSignup } from "../use-beta-signup";

export interface BetaSignupFormProps {
  source: WaitlistSource;
  submitLabel: string;
  /** Spec §4: 'Infiltrating...' on the landing page. */
  pendingLabel?: string;
  placeholder?: string;
  size?: "2" | "3";
}

/** Inline e-mail + button form for the landing page (hero and closing band). */
export function BetaSignupForm({
  source,
  submitLabel,
  pendingLabel = "Infiltrating...",
  placeholder = "you@company.com",
  size = "3",
}: BetaSignupFormProps) {
  const id = useId();
  const [email, setEmail] = useState("");
  const { pending, submit } = useBetaSignup(source);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (await submit(email)) setEmail("");
  }

  return (
    <form onSubmit={onSubmit} className="mk-beta-form" data-source={source}>
      <Flex gap="2" direction={{ initial: "column", xs: "row" }} width="100%">
        <VisuallyHidden>
          <label htmlFor={id}>Email address</label>
        </VisuallyHidden>
        <TextField.Root
          id={id}
          type="email"
          name="email"
          required
          autoComplete="email"
          size={size}
          placeholder={placeholder}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className="mk-beta-input"
        >
          <TextField.Slot>
            <EnvelopeClosedIcon aria-hidden />
          </TextField.Slot>
        </TextField.Root>
        <Button type="submit" size={size} disabled={pending} className="mk-beta-submit">
          {pending ? pendingLabel : submitLabel}
        </Button>
      </Flex>
    </form>
  );
}
