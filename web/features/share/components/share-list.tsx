import "../share.css";
import { Badge, Button, Table, Text } from "@radix-ui/themes";
import { formatDateTime } from "#web/lib/format";
import type { ShareView } from "../api";
import { hasExpired } from "../expiry";

const byWhom = (s: ShareView) => s.createdBy?.username || s.createdBy?.email || "A deleted account";

/**
 * A comparison's share links: when each was made, whether it still works (a live one can be revoked),
 * until when, how often it was opened, which run it shows and who made it. The action sits next to
 * the date, so a phone shows it without scrolling the table.
 */
export function ShareList({
  links,
  now,
  revoking,
  onRevoke,
}: {
  links: readonly ShareView[];
  now: number;
  /** The id of the link whose revocation is under way. */
  revoking: string | null;
  onRevoke(link: ShareView): void;
}) {
  return (
    // Narrower than its columns (a phone), the table scrolls sideways inside the dialog.
    <Table.Root size="1" variant="surface" data-testid="share-links" className="di-share-links">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Expires</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Views</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>Run</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>By</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {links.map((s) => (
          <Table.Row key={s.id} data-testid="share-link-row">
            <Table.RowHeaderCell>
              <Text size="1">{formatDateTime(s.createdAt)}</Text>
            </Table.RowHeaderCell>
            <Table.Cell>
              {s.revoked ? (
                <Badge color="gray" highContrast>
                  Revoked
                </Badge>
              ) : hasExpired(s.expiresAt, now) ? (
                <Badge color="amber">Expired</Badge>
              ) : (
                <Button
                  size="1"
                  color="red"
                  variant="soft"
                  loading={revoking === s.id}
                  onClick={() => onRevoke(s)}
                  aria-label={`Revoke the link created ${formatDateTime(s.createdAt)}`}
                >
                  Revoke
                </Button>
              )}
            </Table.Cell>
            <Table.Cell>
              <Text size="1">{s.expiresAt ? formatDateTime(s.expiresAt) : "Never"}</Text>
            </Table.Cell>
            <Table.Cell>
              <Text size="1" style={{ fontVariantNumeric: "tabular-nums" }}>
                {s.views}
              </Text>
            </Table.Cell>
            <Table.Cell>
              <Text size="1">#{s.runNumber}</Text>
            </Table.Cell>
            <Table.Cell className="di-share-by">
              <Text size="1">{byWhom(s)}</Text>
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}
