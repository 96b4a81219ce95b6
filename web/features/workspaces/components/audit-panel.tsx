import { Button, Card, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import { useCallback, useEffect, useState } from "react";
import type { AuditPage } from "#server/modules/audit/model";
import { AuditTable } from "#web/components/audit-table";
import { Pager } from "#web/components/ui/pager";
import type { CurrentWorkspace } from "#web/lib/workspace";
import { listWorkspaceAudit } from "../api";

export const AUDIT_PAGE_SIZE = 20;

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
          <AuditTable entries={data.entries} labelledBy="audit-heading" />
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />
        </>
      )}
    </Card>
  );
}
