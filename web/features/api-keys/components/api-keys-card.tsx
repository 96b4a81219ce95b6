import { Badge, Button, Card, Code, Flex, Heading, RadioGroup, Table, Text, TextField } from "@radix-ui/themes";
import { type FormEvent, useEffect, useState } from "react";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { formatDateTime } from "#web/lib/format";
import { type ApiKeyScope, type ApiKeyView, createMyKey, listMyKeys, revokeMyKey } from "../api";
import { NewKeyCallout } from "./new-key-callout";

const SCOPES: { value: ApiKeyScope; label: string; hint: string }[] = [
  { value: "read", label: "Read", hint: "See comparisons and results; change nothing" },
  { value: "run", label: "Run", hint: "Also create comparisons and targets and start runs (CI)" },
];

/** Settings: create, list and revoke your own API keys. */
export function ApiKeysCard() {
  const [keys, setKeys] = useState<ApiKeyView[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiKeyScope>("read");
  const [creating, setCreating] = useState(false);
  const [fresh, setFresh] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);

  useEffect(() => {
    listMyKeys()
      .then(setKeys)
      .catch((e) => setFailed(errorMessage(e, "Could not load your API keys")));
  }, []);

  async function create(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    setCreating(true);
    try {
      const created = await createMyKey(trimmed, scope);
      setFresh(created.key);
      const view: ApiKeyView = {
        id: created.id,
        name: created.name,
        scope: created.scope,
        prefix: created.key.slice(0, 10),
        createdAt: created.createdAt,
        lastUsedAt: null,
        revokedAt: null,
      };
      setKeys((k) => [view, ...(k ?? [])]);
      setName("");
      toast({ title: "API Key Created", description: "Copy it now: it won't be shown again." });
    } catch (err) {
      toast({ title: "Key Creation Failed", description: errorMessage(err, "Unable to create a key."), variant: "destructive" });
    } finally {
      setCreating(false);
    }
  }

  async function revoke(k: ApiKeyView) {
    setRevoking(k.id);
    try {
      const updated = await revokeMyKey(k.id);
      setKeys((list) => list?.map((x) => (x.id === updated.id ? updated : x)) ?? list);
      toast({ title: "API Key Revoked", description: `${k.name} no longer works.` });
    } catch (err) {
      toast({ title: "Revoke Failed", description: errorMessage(err, "Unable to revoke this key."), variant: "destructive" });
    } finally {
      setRevoking(null);
    }
  }

  return (
    <Card size="3">
      <Heading as="h2" size="4" mb="1" id="api-keys-heading">
        API keys
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        For scripts and CI. Send a key as <Code>Authorization: Bearer di_…</Code> or <Code>X-API-Key</Code>; it acts as you and only sees
        your data.
      </Text>
      <form onSubmit={create} aria-labelledby="api-keys-heading">
        <Flex direction="column" gap="3" mb="3">
          <label>
            <Text as="div" size="2" weight="medium" mb="1">
              Key name
            </Text>
            <TextField.Root value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. GitHub Actions" maxLength={60} required />
          </label>
          <div>
            <Text as="div" size="2" weight="medium" mb="1" id="api-key-scope-label">
              Scope
            </Text>
            <RadioGroup.Root value={scope} onValueChange={(v) => setScope(v as ApiKeyScope)} aria-labelledby="api-key-scope-label">
              {SCOPES.map((s) => (
                <RadioGroup.Item key={s.value} value={s.value}>
                  <Text weight="medium">{s.label}</Text>{" "}
                  <Text size="1" color="gray">
                    {s.hint}
                  </Text>
                </RadioGroup.Item>
              ))}
            </RadioGroup.Root>
          </div>
          <Flex>
            <Button type="submit" loading={creating} disabled={!name.trim()}>
              Create API Key
            </Button>
          </Flex>
        </Flex>
      </form>
      {fresh && <NewKeyCallout keyText={fresh} />}
      {failed ? (
        <Text color="red" size="2" role="alert">
          {failed}
        </Text>
      ) : !keys ? (
        <Text color="gray" size="2">
          Loading keys…
        </Text>
      ) : keys.length === 0 ? (
        <Text color="gray" size="2">
          You have no API keys yet.
        </Text>
      ) : (
        <Table.Root size="1" variant="surface" data-testid="my-api-keys">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Scope</Table.ColumnHeaderCell>
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
                  <Badge color={k.scope === "run" ? "amber" : "blue"} variant="soft">
                    {k.scope === "run" ? "Run" : "Read"}
                  </Badge>
                </Table.Cell>
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
                    <Badge color="gray" highContrast>
                      Revoked
                    </Badge>
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
    </Card>
  );
}
