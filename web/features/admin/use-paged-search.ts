import { useCallback, useEffect, useState } from "react";
import { errorMessage } from "#web/lib/api";

/**
 * A searchable, paged admin list (users, everyone's API keys): the page and the search, the page
 * of rows the server answered, and why loading failed. A new search starts from page 1. Typing
 * waits a moment, so a search is one request rather than one per key press.
 */
export function usePagedSearch<T>(fetchPage: (page: number, q: string) => Promise<T>, failure: string, enabled = true) {
  const [page, setPage] = useState(1);
  const [query, setQueryText] = useState("");
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  const load = useCallback(() => {
    setFailed(null);
    fetchPage(page, query.trim())
      .then(setData)
      .catch((e) => setFailed(errorMessage(e, failure)));
  }, [fetchPage, failure, page, query]);

  useEffect(() => {
    if (!enabled) return;
    const t = setTimeout(load, 200);
    return () => clearTimeout(t);
  }, [enabled, load]);

  const setQuery = (q: string) => {
    setQueryText(q);
    setPage(1);
  };
  return { page, setPage, query, setQuery, data, setData, failed };
}
