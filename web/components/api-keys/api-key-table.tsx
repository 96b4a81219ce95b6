import { Badge, Button, Code, Table, Text } from "@radix-ui/themes";
import type { ApiKeyView } from "#server/modules/api-keys/model";
import { formatDateTime } from "#web/lib/format";

/**
 * API keys as a table: the user's own in Settings, everyone's in the console (with an Owner column).
 * Only the prefix is ever shown; a live key has a Revoke button, a revoked one says so.
 */
export function ApiKeyTable<K extends ApiKeyView>({
  keys,
  revoking,
  onRevoke,
  testId,
  ownerOf,
  workspaceOf,
}: {
  keys: readonly K[];
  /** The id of the key whose revocation is under way. */
  revoking: string | null;
  onRevoke(key: K): void;
  testId: string;
  /** Whose key it is; given, the table gains an Owner column (everyone's keys). */
  ownerOf?: (key: K) => string;
  /** Which workspace the key acts in; given, the table gains a Workspace column. */
  workspaceOf?: (key: K) => string;
}) {
  return (
    <Table.Root size="1" variant="surface" data-testid={testId}>
      <Table.Header>
        <Table.Row>
          {ownerOf && <Table.ColumnHeaderCell>Owner</Table.ColumnHeaderCell>}
          {workspaceOf && <Table.ColumnHeaderCell>Workspace</Table.ColumnHeaderCell>}
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
            {ownerOf && (
              <Table.Cell>
                <Text size="1" style={{ overflowWrap: "anywhere" }}>
                  {ownerOf(k)}
                </Text>
              </Table.Cell>
            )}
            {workspaceOf && (
              <Table.Cell>
                <Text size="1" style={{ overflowWrap: "anywhere" }}>
                  {workspaceOf(k)}
                </Text>
              </Table.Cell>
            )}
            <Table.RowHeaderCell>{k.name}</Table.RowHeaderCell>
            <Table.Cell>
              <Badge color={k.scope === "run" ? "amber" : "blue"} variant="soft" highContrast>
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
                  aria-label={ownerOf ? `Revoke ${k.name} of ${ownerOf(k)}` : `Revoke ${k.name}`}
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
