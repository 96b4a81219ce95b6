import { Button, Callout, Code, Flex } from "@radix-ui/themes";
import { CopyIcon, ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { toast } from "#web/components/ui/toast";

/** The key, once: it is stored hashed, so this is the only time anyone can copy it. */
export function NewKeyCallout({ keyText }: { keyText: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(keyText);
      toast({ title: "Copied", description: "The key is on your clipboard." });
    } catch {
      toast({ title: "Copy Failed", description: "Select the key and copy it by hand.", variant: "destructive" });
    }
  }
  return (
    <Callout.Root color="amber" mb="3" data-testid="new-api-key">
      <Callout.Icon>
        <ExclamationTriangleIcon />
      </Callout.Icon>
      <Callout.Text>Copy this key now. It is stored hashed and won't be shown again.</Callout.Text>
      <Flex gap="2" align="center" wrap="wrap">
        <Code size="2" style={{ wordBreak: "break-all" }} data-testid="new-api-key-value">
          {keyText}
        </Code>
        <Button size="1" variant="soft" onClick={() => void copy()}>
          <CopyIcon aria-hidden="true" />
          Copy
        </Button>
      </Flex>
    </Callout.Root>
  );
}
