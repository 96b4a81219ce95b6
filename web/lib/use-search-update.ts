import { useCallback } from "react";
import { useSearchParams } from "react-router";

/**
 * The page's search params and a setter that changes only the given keys, in place (no history
 * entry, no scroll jump): tabs, pairs and view modes live in the URL so a copied link opens them.
 */
export function useSearchUpdate() {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: Record<string, string>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) next.set(k, v);
          return next;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setParams],
  );
  return { params, update };
}
