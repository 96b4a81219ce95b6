// Synced scroll at Fit and 50 % (the end-to-end suite covers 100 % in Chromium). The DOM here has
// no layout, so each panel is given the geometry a browser would: 560 px wide, 600 px tall, its
// content as wide as the panel sized it for the zoom and as tall as that width makes the capture.
// The widths come from the component (its zoom rule), the scrolling from the hook under test.
import "#tests/support/dom";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
const { fireEvent } = await import("@testing-library/react");
const { $, comparison, extraction, renderUi, snapshot, target } = await import("../../test-utils");
const { diff, resultsView } = await import("../../results-view-kit");
const { PANEL_HEIGHT } = await import("./screenshot-panel");
const { SCROLL_LOCK_MS } = await import("../../scroll-sync");

const PANEL_WIDTH = 560;
const tall = (id: string, targetId: string, height: number) =>
  snapshot(id, targetId, "desktop", { height, extraction: { ...extraction({ viewport: "desktop" }), capturedHeight: height } });
const view = resultsView({
  comparison: comparison({ status: "completed" as const, targetCount: 2 }),
  targets: [target("t1", "Alpha"), target("t2", "Beta")],
  // One page twice as long as the other: the same relative position is a different offset.
  snapshots: [tall("s1", "t1", 2000), tall("s2", "t2", 4000)],
  diffs: [diff("d12", "t1", "t2", 0.8)],
  findings: [],
});

const isPanel = (el: Element) => el instanceof HTMLElement && el.dataset.testid === "screenshot-panel";
/** The capture's box inside a panel, as the panel's styles lay it out. */
function content(panel: HTMLElement): { width: number; height: number } {
  const box = panel.firstElementChild as HTMLElement;
  const img = box.querySelector("img")!;
  const width = parseFloat(box.style.width);
  if (!Number.isFinite(width)) throw new Error(`the capture's width is not laid out in px: "${box.style.width}"`);
  return { width, height: (width * Number(img.getAttribute("height"))) / Number(img.getAttribute("width")) };
}
const geometry: Record<string, (el: HTMLElement) => number> = {
  clientWidth: () => PANEL_WIDTH,
  clientHeight: () => PANEL_HEIGHT,
  scrollWidth: (el) => Math.max(PANEL_WIDTH, content(el).width),
  scrollHeight: (el) => Math.max(PANEL_HEIGHT, content(el).height),
};
function panels(zoom: "fit" | "50") {
  renderUi(view({ zoom }));
  const [left, right] = $().getAllByTestId("screenshot-panel");
  expect(left!.dataset.zoom).toBe(zoom);
  return [left!, right!] as const;
}
const scroll = (el: HTMLElement, top: number, left = 0) => {
  el.scrollTop = top;
  el.scrollLeft = left;
  fireEvent.scroll(el);
};

describe("synced scroll", () => {
  // Inside the block: the DOM itself is taken down after the file.
  const saved = new Map<string, PropertyDescriptor | undefined>();
  // The echo lock reads performance.now(): the test moves that clock, so a slow machine cannot
  // turn the follower's echo into a scroll of its own.
  const realNow = performance.now;
  let clock = 1000;
  beforeAll(() => {
    performance.now = () => clock;
    for (const [prop, value] of Object.entries(geometry)) {
      const original =
        Object.getOwnPropertyDescriptor(Element.prototype, prop) ?? Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop);
      saved.set(prop, Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop));
      Object.defineProperty(HTMLElement.prototype, prop, {
        configurable: true,
        get(this: HTMLElement) {
          return isPanel(this) ? value(this) : (original?.get?.call(this) ?? 0);
        },
      });
    }
  });
  afterAll(() => {
    performance.now = realNow;
    for (const [prop, descriptor] of saved) {
      if (descriptor) Object.defineProperty(HTMLElement.prototype, prop, descriptor);
      else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[prop];
    }
  });

  test("Fit: the pages fill the panel width, and the other panel follows to the same relative depth", () => {
    const [left, right] = panels("fit");
    expect(content(left)).toMatchObject({ width: PANEL_WIDTH });
    expect(content(right)).toMatchObject({ width: PANEL_WIDTH });
    const leftMax = left.scrollHeight - PANEL_HEIGHT;
    const rightMax = right.scrollHeight - PANEL_HEIGHT;
    expect(leftMax).toBeGreaterThan(0);
    expect(rightMax).toBeGreaterThan(leftMax);
    scroll(left, leftMax / 2);
    expect(right.scrollTop).toBeCloseTo(rightMax / 2, 3);
    // Nothing to scroll sideways at Fit: the other panel stays at its left edge.
    expect(right.scrollLeft).toBe(0);
    // The write fires a scroll on the follower; that echo does not steer the leader back.
    fireEvent.scroll(right);
    expect(left.scrollTop).toBeCloseTo(leftMax / 2, 3);
    scroll(left, leftMax);
    expect(right.scrollTop).toBeCloseTo(rightMax, 3);
    // Once the lock has passed, the user may drive the other panel.
    clock += SCROLL_LOCK_MS;
    scroll(right, 0);
    expect(left.scrollTop).toBe(0);
  });

  test("50 %: half the natural width, wider than the panel; both directions follow", () => {
    const [left, right] = panels("50");
    expect(content(left).width).toBe(720);
    expect(content(right).width).toBe(720);
    const maxX = 720 - PANEL_WIDTH;
    const leftMax = left.scrollHeight - PANEL_HEIGHT;
    const rightMax = right.scrollHeight - PANEL_HEIGHT;
    expect(rightMax).toBeGreaterThan(leftMax);
    scroll(left, leftMax / 4, maxX / 2);
    expect(right.scrollTop).toBeCloseTo(rightMax / 4, 3);
    expect(right.scrollLeft).toBeCloseTo(maxX / 2, 3);
    fireEvent.scroll(right);
    expect(left.scrollTop).toBeCloseTo(leftMax / 4, 3);
    expect(left.scrollLeft).toBeCloseTo(maxX / 2, 3);
  });

  test("50 %: the right panel drives the left one as well", () => {
    const [left, right] = panels("50");
    const leftMax = left.scrollHeight - PANEL_HEIGHT;
    const rightMax = right.scrollHeight - PANEL_HEIGHT;
    scroll(right, rightMax, 720 - PANEL_WIDTH);
    expect(left.scrollTop).toBeCloseTo(leftMax, 3);
    expect(left.scrollLeft).toBeCloseTo(720 - PANEL_WIDTH, 3);
  });
});
