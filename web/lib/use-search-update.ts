import { useCallback, useEffect, useRef } from "react";
import { useSearchParams } from "react-router";

/**
 * The page's search params and a setter that changes only the given keys, in place (no history
 * entry, no scroll jump): tabs, pairs and view modes live in the URL so a copied link opens them.
 * A change that leaves the search as it is navigates nowhere: a control may report one change twice
 * before the page renders again (Radix tabs do, on focus and on click), and a navigation to the
 * same URL would run the page's loaders again.
 */
export function useSearchUpdate() {
  const [params, setParams] = useSearchParams();
  // The search as last asked for, ahead of the render that shows it.
  const asked = useRef(params.toString());
  useEffect(() => {
    asked.current = params.toString();
  }, [params]);
  const update = useCallback(
    (changes: Record<string, string>) => {
      const next = new URLSearchParams(asked.current);
      for (const [k, v] of Object.entries(changes)) next.set(k, v);
      if (next.toString() === asked.current) return;
      asked.current = next.toString();
      setParams(next, { replace: true, preventScrollReset: true });
    },
    [setParams],
  );
  return { params, update };
}
