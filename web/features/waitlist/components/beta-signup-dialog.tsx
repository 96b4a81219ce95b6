import { EmailInput } from "#web/components/ui/email-input";
import { Button, Dialog, Flex, Text } from "@radix-ui/themes";
import { type FormEvent, type ReactElement, useId, useState } from "react";
import type { WaitlistSource } from "../api";
import { useBetaSignup } from "../use-beta-signup";

export interface BetaSignupDialogProps {
  source: WaitlistSource;
  /** The button that opens the dialog; it keeps its own look and label. */
  trigger: ReactElement;
  title?: string;
  description?: string;
  submitLabel?: string;
  /** Spec §4: 'Joining...' on the pricing and features pages. */
  pendingLabel?: string;
}

/**
 * The spec's header, pricing and features buttons posted a fixed placeholder address; here they
 * ask the visitor for a real one, and keep their own source tag for attribution.
 */
export function BetaSignupDialog({
  source,
  trigger,
  title = "Crash the Beta",
  description = "Drop your e-mail and we'll save you a seat before the doors open.",
  submitLabel = "Join Beta - Free",
  pendingLabel = "Joining...",
}: BetaSignupDialogProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const { pending, submit } = useBetaSignup(source);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (await submit(email)) {
      setEmail("");
      setOpen(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>{trigger}</Dialog.Trigger>
      <Dialog.Content maxWidth="440px" data-source={source}>
        <Dialog.Title>{title}</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="4">
          {description}
        </Dialog.Description>
        <form onSubmit={onSubmit}>
          <Flex direction="column" gap="2">
            <Text as="label" htmlFor={id} size="2" weight="medium">
              Email address
            </Text>
            <EmailInput id={id} value={email} onChange={setEmail} placeholder="you@company.com" autoFocus />
          </Flex>
          <Flex gap="3" mt="5" justify="end">
            <Dialog.Close>
              <Button type="button" variant="soft" color="gray">
                Maybe later
              </Button>
            </Dialog.Close>
            <Button type="submit" disabled={pending}>
              {pending ? pendingLabel : submitLabel}
            </Button>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
