import { Box, Button, Code, Dialog, Flex, Tabs, Text, TextField } from "@radix-ui/themes";
import { type FormEvent, useState } from "react";
import { ApiKeyTable } from "#web/components/api-keys/api-key-table";
import { NewKeyCallout } from "#web/components/api-keys/new-key-callout";
import { useApiKeys } from "#web/components/api-keys/use-api-keys";
import { createApiKey, listApiKeys, revokeApiKey } from "../api";
import { AllApiKeys } from "./all-api-keys";
import { Loaded } from "./loaded";
import { CloseFooter } from "#web/components/ui/close-footer";

export function ApiKeysDialog({ open, onOpenChange }: { open: boolean; onOpenChange(o: boolean): void }) {
  const [name, setName] = useState("");
  const {
    keys,
    failed,
    fresh,
    creating,
    revoking,
    create: createKey,
    revoke,
    replace,
  } = useApiKeys(
    {
      list: listApiKeys,
      create: async (keyName) => {
        const created = await createApiKey(keyName);
        return { view: created.apiKey, key: created.key };
      },
      revoke: revokeApiKey,
    },
    {
      loadFailed: "Could not load API keys",
      createdTitle: "API Key Generated",
      createFailedTitle: "Key Generation Failed",
      createFailed: "Unable to generate a key.",
    },
    open,
  );

  async function create(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (trimmed && (await createKey(trimmed))) setName("");
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="860px">
        <Dialog.Title>API Keys</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Personal keys for scripts and CI. Send one as <Code>Authorization: Bearer di_…</Code>; it acts as you, with your current role.
        </Dialog.Description>
        {/* Your own keys first; every user's keys (owners shown, any revocable) beside them. */}
        <Tabs.Root defaultValue="mine">
          <Tabs.List>
            <Tabs.Trigger value="mine">Your keys</Tabs.Trigger>
            <Tabs.Trigger value="all">All users</Tabs.Trigger>
          </Tabs.List>
          <Box pt="3">
            <Tabs.Content value="mine">
              <form onSubmit={create}>
                <Flex gap="2" align="end" mb="3">
                  <label style={{ flex: 1 }}>
                    <Text as="div" size="2" weight="medium" mb="1">
                      Key name
                    </Text>
                    <TextField.Root
                      value={name}
                      onChange={(e) => setName(e.target.value)}
                      placeholder="e.g. CI nightly"
                      maxLength={60}
                      required
                    />
                  </label>
                  <Button type="submit" loading={creating} disabled={!name.trim()}>
                    Generate API Key
                  </Button>
                </Flex>
              </form>
              {fresh && <NewKeyCallout keyText={fresh} />}
              <Loaded
                failed={failed}
                data={keys}
                loading="Loading keys…"
                empty="You have no API keys yet."
                isEmpty={(list) => list.length === 0}
              >
                {(keys) => <ApiKeyTable keys={keys} revoking={revoking} onRevoke={(k) => void revoke(k)} testId="api-keys-table" />}
              </Loaded>
            </Tabs.Content>
            <Tabs.Content value="all">
              <AllApiKeys onRevoked={replace} />
            </Tabs.Content>
          </Box>
        </Tabs.Root>
        <CloseFooter />
      </Dialog.Content>
    </Dialog.Root>
  );
}
