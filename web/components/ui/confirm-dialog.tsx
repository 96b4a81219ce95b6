import { AlertDialog, Button, Flex } from "@radix-ui/themes";
import type { ReactNode } from "react";

/** Asks before an action that takes effect at once (disable a user, revoke a key, remove a member): Cancel, or the red action. */
export function ConfirmDialog(props: {
  open: boolean;
  onCancel(): void;
  title: ReactNode;
  description: ReactNode;
  action: string;
  onConfirm(): void;
}) {
  return (
    <AlertDialog.Root open={props.open} onOpenChange={(o) => !o && props.onCancel()}>
      <AlertDialog.Content maxWidth="440px">
        <AlertDialog.Title>{props.title}</AlertDialog.Title>
        <AlertDialog.Description size="2">{props.description}</AlertDialog.Description>
        <Flex gap="3" mt="4" justify="end">
          <AlertDialog.Cancel>
            <Button variant="soft" color="gray">
              Cancel
            </Button>
          </AlertDialog.Cancel>
          <AlertDialog.Action>
            <Button color="red" onClick={props.onConfirm}>
              {props.action}
            </Button>
          </AlertDialog.Action>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
