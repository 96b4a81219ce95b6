import { useEffect, useRef, useState } from "react";
import type { ApiKeyView } from "#server/modules/api-keys/model";
import { toast } from "#web/components/ui/toast";
import { errorMessage } from "#web/lib/api";

export interface ApiKeyOps {
  list(): Promise<ApiKeyView[]>;
  /** The new key's row and the key itself, which the server shows this once. */
  create(name: string): Promise<{ view: ApiKeyView; key: string }>;
  revoke(id: string): Promise<ApiKeyView>;
}

/** What the two screens say differently ("Generate" in the console, "Create" in Settings). */
export interface ApiKeyWording {
  loadFailed: string;
  createdTitle: string;
  createFailedTitle: string;
  createFailed: string;
}

/**
 * The state behind a key list with create and revoke. The list loads while `active` (a dialog's
 * open state; always, for a card) and the key shown once is forgotten when it turns false.
 */
export function useApiKeys(ops: ApiKeyOps, wording: ApiKeyWording, active = true) {
  const [keys, setKeys] = useState<ApiKeyView[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [fresh, setFresh] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  // The callers pass literals; the latest ones are used without re-running the load.
  const latest = useRef({ ops, wording });
  latest.current = { ops, wording };

  useEffect(() => {
    if (!active) {
      setFresh(null);
      return;
    }
    setFailed(null);
    // An answer that arrives after the list is gone (dialog closed, page left) is dropped.
    let current = true;
    latest.current.ops
      .list()
      .then((list) => current && setKeys(list))
      .catch((e) => current && setFailed(errorMessage(e, latest.current.wording.loadFailed)));
    return () => {
      current = false;
    };
  }, [active]);

  /** True once the key exists (the caller clears its form). */
  async function create(name: string): Promise<boolean> {
    setCreating(true);
    try {
      const created = await ops.create(name);
      setFresh(created.key);
      setKeys((k) => [created.view, ...(k ?? [])]);
      toast({ title: wording.createdTitle, description: "Copy it now: it won't be shown again." });
      return true;
    } catch (err) {
      toast({ title: wording.createFailedTitle, description: errorMessage(err, wording.createFailed), variant: "destructive" });
      return false;
    } finally {
      setCreating(false);
    }
  }

  /** A key that changed elsewhere (an admin revoked it from everyone's list) shows its new state here, if listed. */
  function replace(updated: ApiKeyView) {
    setKeys((list) => list?.map((x) => (x.id === updated.id ? updated : x)) ?? list);
  }

  async function revoke(k: ApiKeyView) {
    setRevoking(k.id);
    try {
      replace(await ops.revoke(k.id));
      toast({ title: "API Key Revoked", description: `${k.name} no longer works.` });
    } catch (err) {
      toast({ title: "Revoke Failed", description: errorMessage(err, "Unable to revoke this key."), variant: "destructive" });
    } finally {
      setRevoking(null);
    }
  }

  return { keys, failed, fresh, creating, revoking, create, revoke, replace };
}
