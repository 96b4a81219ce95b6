import { Badge, Table, Text } from "@radix-ui/themes";
import type { AuditEntry } from "#server/modules/audit/model";
import { auditActor, auditLabel, auditTone } from "#web/lib/audit-labels";
import { formatDateTime } from "#web/lib/format";

/** Audit entries, newest first, as the operator's console and each workspace's Settings show them; a phone gets when, who and what. */
export function AuditTable({
  entries,
  withOrigin = false,
  labelledBy,
}: {
  entries: readonly AuditEntry[];
  /** The request's address and browser: the operator's view. */
  withOrigin?: boolean;
  labelledBy?: string;
}) {
  return (
    <Table.Root
      size="1"
      variant="surface"
      data-testid="audit-table"
      {...(labelledBy ? { role: "region", "aria-labelledby": labelledBy } : {})}
    >
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>When</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Who</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Action</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell className="di-wide-only">Target</Table.ColumnHeaderCell>
          {withOrigin && <Table.ColumnHeaderCell className="di-wide-only">From</Table.ColumnHeaderCell>}
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {entries.map((e) => (
          <Table.Row key={e.id} data-testid="audit-row">
            <Table.Cell>
              <Text size="1">{formatDateTime(e.createdAt)}</Text>
            </Table.Cell>
            <Table.Cell>
              <Text size="1" style={{ overflowWrap: "anywhere" }}>
                {auditActor(e)}
              </Text>
            </Table.Cell>
            <Table.Cell>
              <Badge color={auditTone(e.action)} variant="soft">
                {auditLabel(e.action)}
              </Badge>
            </Table.Cell>
            <Table.Cell className="di-wide-only">
              <Text size="1" style={{ overflowWrap: "anywhere" }}>
                {e.target ?? "—"}
              </Text>
            </Table.Cell>
            {withOrigin && (
              <Table.Cell className="di-wide-only">
                <Text size="1" title={e.userAgent ?? undefined}>
                  {e.ip ?? "—"}
                </Text>
                {e.userAgent && (
                  <Text as="p" size="1" color="gray" truncate style={{ maxWidth: 220 }}>
                    {e.userAgent}
                  </Text>
                )}
              </Table.Cell>
            )}
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}
