import { Dialog } from "@radix-ui/themes";
import { useCallback, useState } from "react";
import type { AuditPage } from "#server/modules/audit/model";
import { AuditTable } from "#web/components/audit-table";
import { listAuditLogs } from "../api";
import { useConsoleList } from "../use-console-list";
import { Pager } from "#web/components/ui/pager";
import { Loaded } from "./loaded";
import { CloseFooter } from "#web/components/ui/close-footer";

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
              <AuditTable entries={data.entries} withOrigin />
              <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />
            </>
          )}
        </Loaded>
        <CloseFooter />
      </Dialog.Content>
    </Dialog.Root>
  );
}
