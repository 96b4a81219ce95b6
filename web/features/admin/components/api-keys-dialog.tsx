import { Button, Code, Dialog, Flex, Text, TextField } from "@radix-ui/themes";
import { type FormEvent, useEffect, useState } from "react";
import type { ApiKeyView } from "#server/modules/api-keys/model";
import { ApiKeyTable } from "#web/components/api-keys/api-key-table";
import { NewKeyCallout } from "#web/components/api-keys/new-key-callout";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { createApiKey, listApiKeys, revokeApiKey } from "../api";
import { Loaded } from "./loaded";
import { CloseFooter } from "./close-footer";

export function ApiKeysDialog({ open, onOpenChange }: { open: boolean; onOpenChange(o: boolean): void }) {
  const [keys, setKeys] = useState<ApiKeyView[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [creating, setCreating] = useState(false);
  const [fresh, setFresh] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);

  useEffect(() => {
    if (!open) {
      // The key is shown once: closing the dialog forgets it.
      setFresh(null);
      return;
    }
    setFailed(null);
    listApiKeys()
      .then(setKeys)
      .catch((e) => setFailed(errorMessage(e, "Could not load API keys")));
  }, [open]);

  async function create(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    setCreating(true);
    try {
      const created = await createApiKey(trimmed);
      setFresh(created.key);
      setKeys((k) => [created.apiKey, ...(k ?? [])]);
      setName("");
      toast({ title: "API Key Generated", description: "Copy it now: it won't be shown again." });
    } catch (err) {
      toast({ title: "Key Generation Failed", description: errorMessage(err, "Unable to generate a key."), variant: "destructive" });
    } finally {
      setCreating(false);
    }
  }

  async function revoke(k: ApiKeyView) {
    setRevoking(k.id);
    try {
      const updated = await revokeApiKey(k.id);
      setKeys((list) => list?.map((x) => (x.id === updated.id ? updated : x)) ?? list);
      toast({ title: "API Key Revoked", description: `${k.name} no longer works.` });
    } catch (err) {
      toast({ title: "Revoke Failed", description: errorMessage(err, "Unable to revoke this key."), variant: "destructive" });
    } finally {
      setRevoking(null);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="760px">
        <Dialog.Title>API Keys</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Personal keys for scripts and CI. Send one as <Code>Authorization: Bearer di_…</Code>; it acts as you, with your current role.
        </Dialog.Description>
        <form onSubmit={create}>
          <Flex gap="2" align="end" mb="3">
            <label style={{ flex: 1 }}>
              <Text as="div" size="2" weight="medium" mb="1">
                Key name
              </Text>
              <TextField.Root value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. CI nightly" maxLength={60} required />
            </label>
            <Button type="submit" loading={creating} disabled={!name.trim()}>
              Generate API Key
            </Button>
          </Flex>
        </form>
        {fresh && <NewKeyCallout keyText={fresh} />}
        <Loaded failed={failed} data={keys} loading="Loading keys…" empty="You have no API keys yet." isEmpty={(list) => list.length === 0}>
          {(keys) => (
            <ApiKeyTable keys={keys} revoking={revoking} onRevoke={(k) => void revoke(k)} testId="api-keys-table" />
          )}
        </Loaded>
        <CloseFooter />
      </Dialog.Content>
    </Dialog.Root>
  );
}
