import { useCallback, useState } from "react";
import { useConsoleList } from "./use-console-list";

/** Typing waits this long, so a search is one request rather than one per key press. */
const SEARCH_DELAY_MS = 200;

/**
 * A searchable, paged admin list (users, everyone's API keys): the page and the search, the page
 * of rows the server answered, and why loading failed. A new search starts from page 1.
 */
export function usePagedSearch<T>(fetchPage: (page: number, q: string) => Promise<T>, failure: string, enabled = true) {
  const [page, setPage] = useState(1);
  const [query, setQueryText] = useState("");
  const load = useCallback(() => fetchPage(page, query.trim()), [fetchPage, page, query]);
  const { data, setData, failed } = useConsoleList(load, failure, { enabled, delayMs: SEARCH_DELAY_MS });

  const setQuery = (q: string) => {
    setQueryText(q);
    setPage(1);
  };
  return { page, setPage, query, setQuery, data, setData, failed };
}
