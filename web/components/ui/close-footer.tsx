import { Button, Dialog, Flex } from "@radix-ui/themes";

/** The Close button a dialog of lists ends with (the admin console's, the share links). */
export function CloseFooter() {
  return (
    <Flex justify="end" mt="4">
      <Dialog.Close>
        <Button variant="soft" color="gray">
          Close
        </Button>
      </Dialog.Close>
    </Flex>
  );
}
