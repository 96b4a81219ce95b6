import { Button, Dialog, Flex } from "@radix-ui/themes";

/** The Close button every admin dialog ends with. */
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
