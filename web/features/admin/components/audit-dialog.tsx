import { Badge, Dialog, Table, Text } from "@radix-ui/themes";
import { useCallback, useState } from "react";
import type { AuditEntry, AuditPage } from "#server/modules/audit/model";
import { listAuditLogs } from "../api";
import { auditLabel } from "#web/lib/audit-labels";
import { formatDateTime } from "../format";
import { useConsoleList } from "../use-console-list";
import { Pager } from "./pager";
import { Loaded } from "./loaded";
import { CloseFooter } from "#web/components/ui/close-footer";

const tone = (action: string) =>
  action === "auth.sign_in_failed" || action === "alert.raised" || action.endsWith("_failed")
    ? "red"
    : action.startsWith("admin.")
      ? "violet"
      : "gray";

function who(e: AuditEntry) {
  return e.actorEmail ?? (e.action === "alert.raised" ? "System" : "Unknown");
}

export function AuditDialog({ open, onOpenChange }: { open: boolean; onOpenChange(o: boolean): void }) {
  const [page, setPage] = useState(1);
  const load = useCallback(() => listAuditLogs(page), [page]);
  const { data, failed } = useConsoleList<AuditPage>(load, "Could not load the audit log", { enabled: open });

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="960px">
        <Dialog.Title>Audit Logs</Dialog.Title>
        <Dialog.Description size="2" color="gray" mb="3">
          Who did what, when and from where: sign-ins, failed sign-ins and every admin action.
        </Dialog.Description>
        <Loaded
          failed={failed}
          data={data}
          loading="Loading audit log…"
          empty="Nothing recorded yet."
          isEmpty={(page) => page.entries.length === 0}
        >
          {(data) => (
            <>
              <Table.Root size="1" variant="surface" data-testid="audit-table">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeaderCell>When</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Who</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>What</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>Target</Table.ColumnHeaderCell>
                    <Table.ColumnHeaderCell>From</Table.ColumnHeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {data.entries.map((e) => (
                    <Table.Row key={e.id}>
                      <Table.Cell>
                        <Text size="1">{formatDateTime(e.createdAt)}</Text>
                      </Table.Cell>
                      <Table.Cell>
                        <Text size="1" style={{ overflowWrap: "anywhere" }}>
                          {who(e)}
                        </Text>
                      </Table.Cell>
                      <Table.Cell>
                        <Badge color={tone(e.action)} highContrast>
                          {auditLabel(e.action)}
                        </Badge>
                      </Table.Cell>
                      <Table.Cell>
                        <Text size="1" style={{ overflowWrap: "anywhere" }}>
                          {e.target ?? "—"}
                        </Text>
                      </Table.Cell>
                      <Table.Cell>
                        <Text size="1" title={e.userAgent ?? undefined}>
                          {e.ip ?? "—"}
                        </Text>
                        {e.userAgent && (
                          <Text as="p" size="1" color="gray" truncate style={{ maxWidth: 220 }}>
                            {e.userAgent}
                          </Text>
                        )}
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
              <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />
            </>
          )}
        </Loaded>
        <CloseFooter />
      </Dialog.Content>
    </Dialog.Root>
  );
}
