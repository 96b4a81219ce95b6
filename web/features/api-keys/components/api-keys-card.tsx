import { Button, Card, Code, Flex, Heading, RadioGroup, Text, TextField } from "@radix-ui/themes";
import { type FormEvent, useState } from "react";
import { useApiKeys } from "#web/components/api-keys/use-api-keys";
import { type ApiKeyScope, type ApiKeyView, createMyKey, listMyKeys, revokeMyKey } from "../api";
import { ApiKeyTable } from "#web/components/api-keys/api-key-table";
import { NewKeyCallout } from "#web/components/api-keys/new-key-callout";

const SCOPES: { value: ApiKeyScope; label: string; hint: string }[] = [
  { value: "read", label: "Read", hint: "See comparisons and results; change nothing" },
  { value: "run", label: "Run", hint: "Also create comparisons and targets and start runs (CI)" },
];

/** Settings: create, list and revoke your own API keys. */
export function ApiKeysCard() {
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiKeyScope>("read");
  const {
    keys,
    failed,
    fresh,
    creating,
    revoking,
    create: createKey,
    revoke,
  } = useApiKeys(
    {
      list: listMyKeys,
      create: async (keyName) => {
        const created = await createMyKey(keyName, scope);
        const view: ApiKeyView = {
          id: created.id,
          name: created.name,
          scope: created.scope,
          prefix: created.key.slice(0, 10),
          createdAt: created.createdAt,
          lastUsedAt: null,
          revokedAt: null,
        };
        return { view, key: created.key };
      },
      revoke: revokeMyKey,
    },
    {
      loadFailed: "Could not load your API keys",
      createdTitle: "API Key Created",
      createFailedTitle: "Key Creation Failed",
      createFailed: "Unable to create a key.",
    },
  );

  async function create(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (trimmed && (await createKey(trimmed))) setName("");
  }

  return (
    <Card size="3">
      <Heading as="h2" size="4" mb="1" id="api-keys-heading">
        API keys
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        For scripts and CI. Send a key as <Code>Authorization: Bearer di_…</Code> or <Code>X-API-Key</Code>; it acts as you, with your role
        of the moment, in the workspace it was made in, and sees nothing of any other.
      </Text>
      <form onSubmit={create} aria-labelledby="api-keys-heading">
        <Flex direction="column" gap="3" mb="3">
          <label>
            <Text as="div" size="2" weight="medium" mb="1">
              Key name
            </Text>
            <TextField.Root
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. GitHub Actions"
              maxLength={60}
              required
            />
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
        <ApiKeyTable keys={keys} revoking={revoking} onRevoke={(k) => void revoke(k)} testId="my-api-keys" />
      )}
    </Card>
  );
}
