import { Badge, Button, Code, Table, Text } from "@radix-ui/themes";
import type { ApiKeyView } from "#server/modules/api-keys/model";
import { formatDateTime } from "#web/lib/format";

/**
 * API keys as a table: the user's own in Settings, everyone's in the console. Only the prefix is
 * ever shown; a live key has a Revoke button, a revoked one says so.
 */
export function ApiKeyTable({
  keys,
  revoking,
  onRevoke,
  testId,
}: {
  keys: readonly ApiKeyView[];
  /** The id of the key whose revocation is under way. */
  revoking: string | null;
  onRevoke(key: ApiKeyView): void;
  testId: string;
}) {
  return (
    <Table.Root size="1" variant="surface" data-testid={testId}>
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
                <Button
                  size="1"
                  color="red"
                  variant="soft"
                  loading={revoking === k.id}
                  onClick={() => onRevoke(k)}
                  aria-label={`Revoke ${k.name}`}
                >
                  Revoke
                </Button>
              )}
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}
