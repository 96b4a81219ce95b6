// How a console dialog's list loads: only while the dialog is open, again when what to load
// changes, with the load error in place of the rows, and (for searches) one request per pause.
import "#tests/support/dom";
import { afterEach, describe, expect, test } from "bun:test";
const { act, renderHook, waitFor } = await import("@testing-library/react");
const { useConsoleList } = await import("./use-console-list");

afterEach(async () => {
  await act(async () => {});
});

describe("useConsoleList", () => {
  test("loads nothing while closed; opening loads, and a new load function loads again", async () => {
    const calls: number[] = [];
    const loader = (page: number) => () => {
      calls.push(page);
      return Promise.resolve(`page ${page}`);
    };
    const first = loader(1);
    const { result, rerender } = renderHook(({ load, enabled }) => useConsoleList(load, "Could not load", { enabled }), {
      initialProps: { load: first, enabled: false },
    });
    expect(calls).toEqual([]);
    expect(result.current.data).toBeNull();

    rerender({ load: first, enabled: true });
    await waitFor(() => expect(result.current.data).toBe("page 1"));
    rerender({ load: loader(2), enabled: true });
    await waitFor(() => expect(result.current.data).toBe("page 2"));
    expect(calls).toEqual([1, 2]);
  });

  test("a failed load gives the message in place of the rows, and the next load clears it", async () => {
    const failing = () => Promise.reject(new Error("boom"));
    const { result, rerender } = renderHook(({ load }) => useConsoleList<string>(load, "Could not load users"), {
      initialProps: { load: failing as () => Promise<string> },
    });
    await waitFor(() => expect(result.current.failed).toBe("Could not load users"));
    expect(result.current.data).toBeNull();

    rerender({ load: () => Promise.resolve("rows") });
    await waitFor(() => expect(result.current.data).toBe("rows"));
    expect(result.current.failed).toBeNull();
  });

  test("with a delay, loads that change within it are dropped: one request, for the last", async () => {
    const calls: string[] = [];
    const search = (q: string) => () => {
      calls.push(q);
      return Promise.resolve(q);
    };
    const { result, rerender } = renderHook(({ load }) => useConsoleList(load, "Could not search", { delayMs: 20 }), {
      initialProps: { load: search("a") },
    });
    rerender({ load: search("ad") });
    rerender({ load: search("ada") });
    await waitFor(() => expect(result.current.data).toBe("ada"));
    expect(calls).toEqual(["ada"]);
  });
});
