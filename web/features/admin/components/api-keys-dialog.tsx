import { Badge, Button, Callout, Code, Dialog, Flex, Table, Text, TextField } from "@radix-ui/themes";
import { CopyIcon, ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { type FormEvent, useEffect, useState } from "react";
import type { ApiKeyView } from "#server/modules/api-keys/model";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { createApiKey, listApiKeys, revokeApiKey } from "../api";
import { formatDateTime } from "../format";
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

  async function copy() {
    if (!fresh) return;
    try {
      await navigator.clipboard.writeText(fresh);
      toast({ title: "Copied", description: "The key is on your clipboard." });
    } catch {
      toast({ title: "Copy Failed", description: "Select the key and copy it by hand.", variant: "destructive" });
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
        {fresh && (
          <Callout.Root color="amber" mb="3" data-testid="new-api-key">
            <Callout.Icon>
              <ExclamationTriangleIcon />
            </Callout.Icon>
            <Callout.Text>
              Copy this key now. It is stored hashed and won't be shown again.
            </Callout.Text>
            <Flex gap="2" align="center" wrap="wrap">
              <Code size="2" style={{ wordBreak: "break-all" }} data-testid="new-api-key-value">
                {fresh}
              </Code>
              <Button size="1" variant="soft" onClick={() => void copy()}>
                <CopyIcon aria-hidden="true" />
                Copy
              </Button>
            </Flex>
          </Callout.Root>
        )}
        <Loaded failed={failed} data={keys} loading="Loading keys…" empty="You have no API keys yet." isEmpty={(list) => list.length === 0}>
          {(keys) => (
            <Table.Root size="1" variant="surface" data-testid="api-keys-table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Key</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Last used</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {keys.map((k) => (
                  <Table.Row key={k.id}>
                    <Table.RowHeaderCell>{k.name}</Table.RowHeaderCell>
                    <Table.Cell>
                      <Code size="1">{k.prefix}…</Code>
                    </Table.Cell>
                    <Table.Cell>
                      <Text size="1">{formatDateTime(k.createdAt)}</Text>
                    </Table.Cell>
                    <Table.Cell>
                      <Text size="1">{formatDateTime(k.lastUsedAt)}</Text>
                    </Table.Cell>
                    <Table.Cell>
                      {k.revokedAt ? (
                        <Badge color="gray" highContrast>Revoked</Badge>
                      ) : (
                        <Button size="1" color="red" variant="soft" loading={revoking === k.id} onClick={() => void revoke(k)} aria-label={`Revoke ${k.name}`}>
                          Revoke
                        </Button>
                      )}
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </Loaded>
        <CloseFooter />
      </Dialog.Content>
    </Dialog.Root>
  );
}
