import { useState } from "react";
import type { AllKeysPage, OwnedApiKeyView } from "#server/modules/api-keys/model";
import { ApiKeyTable } from "#web/components/api-keys/api-key-table";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";
import { listAllApiKeys, revokeAnyApiKey } from "../api";
import { ConfirmDialog } from "#web/components/ui/confirm-dialog";
import { Loaded } from "./loaded";
import { Pager } from "#web/components/ui/pager";
import { SearchField } from "./search-field";
import { usePagedSearch } from "../use-paged-search";

/**
 * Every user's API keys with their owners, searchable and paged; an admin can revoke any of them
 * (a leaked CI secret, a departed colleague's script). Only what the lists show: the keys
 * themselves are stored hashed. Each key acts in one workspace, named in its row. `onRevoked` tells the console, whose own-key list may hold it too.
 */
export function AllApiKeys({ onRevoked }: { onRevoked?(key: OwnedApiKeyView): void }) {
  const { setPage, query, setQuery, data, setData, failed } = usePagedSearch<AllKeysPage>(listAllApiKeys, "Could not load API keys");
  const [revoking, setRevoking] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<OwnedApiKeyView | null>(null);

  async function revoke(k: OwnedApiKeyView) {
    setRevoking(k.id);
    try {
      const updated = await revokeAnyApiKey(k.id);
      setData((d) => (d ? { ...d, keys: d.keys.map((x) => (x.id === updated.id ? updated : x)) } : d));
      onRevoked?.(updated);
      toast({ title: "API Key Revoked", description: `${k.name} (${k.ownerEmail}) no longer works.` });
    } catch (err) {
      toast({ title: "Revoke Failed", description: errorMessage(err, "Unable to revoke this key."), variant: "destructive" });
    } finally {
      setRevoking(null);
    }
  }

  return (
    <>
      <SearchField label="Search API keys" placeholder="Search by owner e-mail or key name" value={query} onChange={setQuery} />
      <Loaded failed={failed} data={data} loading="Loading keys…" empty="No API keys found." isEmpty={(d) => d.keys.length === 0}>
        {(data) => (
          <>
            <ApiKeyTable<OwnedApiKeyView>
              keys={data.keys}
              revoking={revoking}
              onRevoke={setConfirm}
              ownerOf={(k) => k.ownerEmail}
              workspaceOf={(k) => k.workspaceName}
              testId="all-api-keys-table"
            />
            <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />
          </>
        )}
      </Loaded>
      <ConfirmDialog
        open={confirm !== null}
        onCancel={() => setConfirm(null)}
        title="Revoke this key?"
        description={confirm && `${confirm.name} (${confirm.ownerEmail}) stops working at once: scripts and CI jobs that use it get 401.`}
        action="Revoke"
        onConfirm={() => {
          if (confirm) void revoke(confirm);
        }}
      />
    </>
  );
}
