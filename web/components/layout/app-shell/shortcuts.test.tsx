import "#tests/support/dom";
import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { afterAll, afterEach, describe, expect, mock, test } from "bun:test";
// tests/support/dom.ts registers happy-dom once per process and hands it back after the first file
// that imported it, so in a multi-file run this file brings its own DOM and cleanup.
if (!GlobalRegistrator.isRegistered) {
  GlobalRegistrator.register({ url: "http://localhost:3000/" });
  afterAll(() => GlobalRegistrator.unregister());
}
// After happy-dom: Bun loads CommonJS react-dom before ESM bodies run (see tests/support/dom.ts).
const { act, cleanup, render } = await import("@testing-library/react");
const { shortcutPath, useNavShortcuts } = await import("./shortcuts");

const keydown = (target: EventTarget, key: string, init: KeyboardEventInit = {}) => {
  const e = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(e);
  return e;
};

/** Captures what shortcutPath says about a real event dispatched on `target`. */
function pathFor(target: EventTarget, key: string, init: KeyboardEventInit = {}): string | null {
  let seen: string | null | undefined;
  const listener = (e: Event) => (seen = shortcutPath(e as KeyboardEvent));
  window.addEventListener("keydown", listener);
  keydown(target, key, init);
  window.removeEventListener("keydown", listener);
  return seen ?? null;
}

function mount(html: string): HTMLElement {
  const host = document.createElement("div");
  host.innerHTML = html;
  document.body.appendChild(host);
  return host;
}

afterEach(() => {
  cleanup();
  document.body.innerHTML = "";
});

describe("shortcutPath", () => {
  test("1-5 map to Dashboard, Compare, Trends, Analytics, Activity", () => {
    expect(["1", "2", "3", "4", "5"].map((k) => pathFor(document.body, k))).toEqual([
      "/dashboard",
      "/comparison",
      "/trends",
      "/analytics",
      "/activity",
    ]);
  });

  test("other keys do nothing", () => {
    for (const k of ["0", "6", "a", "Enter"]) expect(pathFor(document.body, k)).toBeNull();
  });

  test("ignored while typing in an input, textarea, select or contenteditable", () => {
    const host = mount(
      `<input id="i"><textarea id="t"></textarea><select id="s"><option>a</option></select>` +
        `<div contenteditable="true"><p id="ce">x</p></div><button id="b">ok</button>`,
    );
    for (const id of ["i", "t", "s", "ce"]) expect(pathFor(host.querySelector(`#${id}`)!, "1")).toBeNull();
    expect(pathFor(host.querySelector("#b")!, "1")).toBe("/dashboard");
  });

  test("ignored with any modifier held", () => {
    for (const mod of ["ctrlKey", "metaKey", "altKey", "shiftKey"] as const)
      expect(pathFor(document.body, "2", { [mod]: true })).toBeNull();
  });

  test("ignored inside an open dialog", () => {
    const host = mount(`<div role="dialog"><button id="in">x</button></div>`);
    expect(pathFor(host.querySelector("#in")!, "3")).toBeNull();
  });
});

describe("useNavShortcuts", () => {
  function Probe({ go }: { go: (path: string) => void }) {
    useNavShortcuts(go);
    return <input aria-label="Name" />;
  }

  test("navigates on a bare digit and claims the key", () => {
    const go = mock((_: string) => {});
    render(<Probe go={go} />);
    let e!: KeyboardEvent;
    act(() => void (e = keydown(document.body, "4")));
    expect(go).toHaveBeenCalledWith("/analytics");
    expect(e.defaultPrevented).toBe(true);
  });

  test("leaves typing and modified keys alone", () => {
    const go = mock((_: string) => {});
    const { getByLabelText } = render(<Probe go={go} />);
    let e!: KeyboardEvent;
    act(() => void (e = keydown(getByLabelText("Name"), "1")));
    act(() => void keydown(document.body, "1", { metaKey: true }));
    expect(go).not.toHaveBeenCalled();
    expect(e.defaultPrevented).toBe(false);
  });

  test("stops listening when unmounted", () => {
    const go = mock((_: string) => {});
    const { unmount } = render(<Probe go={go} />);
    unmount();
    keydown(document.body, "1");
    expect(go).not.toHaveBeenCalled();
  });
});
