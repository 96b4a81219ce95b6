import { Button, Dialog, Flex, Text } from "@radix-ui/themes";
import { type FormEvent, type RefObject, useId, useState } from "react";
import { EmailInput } from "#web/components/ui/email-input";
import { OverlayTheme } from "#web/components/ui/overlay-theme";
import type { WaitlistSource } from "../api";
import { useBetaSignup } from "../use-beta-signup";

export interface BetaSignupDialogContentProps {
  source: WaitlistSource;
  title: string;
  description: string;
  submitLabel: string;
  pendingLabel: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The button that opened the dialog: focus goes back to it on close. */
  trigger: RefObject<HTMLElement | null>;
}

/** The waitlist dialog itself, loaded when its button is first pressed (see ./beta-signup-dialog). */
export default function BetaSignupDialogContent({
  source,
  title,
  description,
  submitLabel,
  pendingLabel,
  open,
  onOpenChange,
  trigger,
}: BetaSignupDialogContentProps) {
  const id = useId();
  const [email, setEmail] = useState("");
  const { pending, submit } = useBetaSignup(source);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (await submit(email)) {
      setEmail("");
      onOpenChange(false);
    }
  }

  return (
    <OverlayTheme>
      <Dialog.Root open={open} onOpenChange={onOpenChange}>
        <Dialog.Content
          maxWidth="440px"
          data-source={source}
          // The trigger is not a Dialog.Trigger (it is drawn before this module loads), so Radix
          // does not know where focus came from.
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            trigger.current?.focus();
          }}
        >
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
    </OverlayTheme>
  );
}
