import { Badge, Button, Card, Flex, Heading, Skeleton, Table, Text } from "@radix-ui/themes";
import { useCallback, useEffect, useState } from "react";
import type { AuditEntry, AuditPage } from "#server/modules/audit/model";
import { auditLabel } from "#web/lib/audit-labels";
import { formatDateTime } from "#web/lib/format";
import type { CurrentWorkspace } from "#web/lib/workspace";
import { listWorkspaceAudit } from "../api";

export const AUDIT_PAGE_SIZE = 20;

const tone = (action: string) =>
  action.endsWith(".deleted") || action.endsWith(".removed") || action.endsWith(".revoked")
    ? "red"
    : action.startsWith("member.") || action.startsWith("workspace.") || action.startsWith("invitation.")
      ? "violet"
      : "gray";

/** An SSO newcomer joining is recorded by id alone; the server itself by neither. */
const who = (e: AuditEntry) => e.actorEmail ?? e.actorId ?? "System";

/**
 * Settings → Audit (owners and admins): what happened in the workspace, newest first: runs
 * started, comparisons deleted, members, invitations, share links and API keys, paged as the server pages.
 */
export function AuditPanel({ workspace }: { workspace: CurrentWorkspace }) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<AuditPage | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(() => {
    let live = true;
    setFailed(false);
    listWorkspaceAudit(workspace.id, page, AUDIT_PAGE_SIZE)
      .then((d) => live && setData(d))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [workspace.id, page]);
  useEffect(load, [load]);

  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <Card size="3" data-testid="audit-panel">
      <Heading as="h2" size="4" mb="1" id="audit-heading">
        Audit
      </Heading>
      <Text as="p" size="2" color="gray" mb="3">
        What happened in {workspace.name}, newest first: runs started, comparisons deleted, members invited, joined, re-roled or removed,
        share links and API keys made and revoked. Owners and admins see it.
      </Text>
      {failed ? (
        <Flex align="center" gap="2">
          <Text size="2" color="red">
            Couldn't load the audit.
          </Text>
          <Button size="1" variant="soft" onClick={load}>
            Try again
          </Button>
        </Flex>
      ) : data === null ? (
        <Flex direction="column" gap="2" aria-busy>
          <Skeleton height="28px" />
          <Skeleton height="28px" />
        </Flex>
      ) : data.entries.length === 0 ? (
        <Text size="2" color="gray">
          Nothing recorded yet.
        </Text>
      ) : (
        <>
          <Table.Root size="1" variant="surface" role="region" aria-labelledby="audit-heading" data-testid="audit-table">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>When</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Who</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Action</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Target</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {data.entries.map((e) => (
                <Table.Row key={e.id} data-testid="audit-row">
                  <Table.Cell>
                    <Text size="1">{formatDateTime(e.createdAt)}</Text>
                  </Table.Cell>
                  <Table.Cell>
                    <Text size="1" style={{ overflowWrap: "anywhere" }}>
                      {who(e)}
                    </Text>
                  </Table.Cell>
                  <Table.Cell>
                    <Badge color={tone(e.action)} variant="soft">
                      {auditLabel(e.action)}
                    </Badge>
                  </Table.Cell>
                  <Table.Cell>
                    <Text size="1" style={{ overflowWrap: "anywhere" }}>
                      {e.target ?? "—"}
                    </Text>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
          <Flex justify="between" align="center" mt="3">
            <Text size="1" color="gray">
              Page {data.page} of {pages} · {data.total} total
            </Text>
            <Flex gap="2">
              <Button size="1" variant="soft" disabled={data.page <= 1} onClick={() => setPage(data.page - 1)}>
                Previous
              </Button>
              <Button size="1" variant="soft" disabled={data.page >= pages} onClick={() => setPage(data.page + 1)}>
                Next
              </Button>
            </Flex>
          </Flex>
        </>
      )}
    </Card>
  );
}
