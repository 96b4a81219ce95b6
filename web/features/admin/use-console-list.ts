import { useEffect, useState } from "react";
import { errorMessage } from "#web/lib/api";

/**
 * Loads a console dialog's list while `enabled` (the dialog open): what the server answered, or
 * why loading failed, as `<Loaded>` shows them. Loads again whenever `load` changes, so callers
 * wrap it in `useCallback` with what should trigger a reload (the page, the search, a version).
 * `delayMs` waits before loading and drops the wait if `load` changes meanwhile (typing a search).
 */
export function useConsoleList<T>(
  load: () => Promise<T>,
  failure: string,
  { enabled = true, delayMs }: { enabled?: boolean; delayMs?: number } = {},
) {
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    if (!enabled) return;
    const run = () => {
      setFailed(null);
      load()
        .then(setData)
        .catch((e) => setFailed(errorMessage(e, failure)));
    };
    if (delayMs === undefined) {
      run();
      return;
    }
    const t = setTimeout(run, delayMs);
    return () => clearTimeout(t);
  }, [enabled, load, failure, delayMs]);

  return { data, setData, failed };
}
