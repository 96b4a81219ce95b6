import "#tests/support/dom";
import { afterEach, describe, expect, test } from "bun:test";
const { act, fireEvent, waitFor, within } = await import("@testing-library/react");
const { useState } = await import("react");
const { ChangesPage } = await import("./components/changes-page");
const { $, changes, mockFetch, renderUi, run, snapshot } = await import("./test-utils");
type View = import("./components/changes-page").ChangesView;
type Data = import("./components/changes-page").ChangesPageData;

let restore = () => {};
// Let React finish its scheduled work while the DOM is still there (it is taken away after the file).
afterEach(async () => {
  await act(async () => {});
  restore();
});

const data = (over: Partial<Data> = {}): Data => ({
  comparison: { id: "c1", name: "Orbit watch" },
  targets: [
    { id: "t1", label: "Orbit", url: "http://orbit.test/" },
    { id: "t2", label: "Ember", url: "http://ember.test/" },
  ],
  runs: [run({ id: "r2", number: 2, changeCount: 3 }), run({ id: "r1", number: 1 })],
  changes,
  error: null,
  before: [snapshot("s1", "t1"), snapshot("s2", "t1", "mobile")],
  after: [snapshot("s3", "t1"), snapshot("s4", "t1", "mobile")],
  ...over,
});

function Harness({ initial, over = {} }: { initial?: Partial<View>; over?: Partial<Data> }) {
  const [view, setView] = useState<View>({
    kinds: new Set(),
    severities: new Set(),
    targetId: null,
    viewport: "desktop",
    role: "home",
    scheme: "light",
    ...initial,
  });
  return <ChangesPage data={{ ...data(), ...over }} view={view} onViewChange={(n) => setView((v) => ({ ...v, ...n }))} />;
}

describe("Change view", () => {
  test("each change with severity, kind, summary and before → after; evidence boxes on the screenshots", () => {
    renderUi(<Harness />);
    expect($().getByText("What changed on each website from Run #1 to Run #2.")).toBeTruthy();
    const items = $().getAllByTestId("change-item");
    expect(items).toHaveLength(3);
    // Most severe first.
    expect(items[0]!.textContent).toContain("High");
    expect(items[0]!.textContent).toContain("CTA “Start your free trial” → “Book a demo”");
    expect(within(items[0]!).getByLabelText("Before and after").textContent).toContain("Start your free trial");
    expect(within(items[0]!).getAllByTestId("evidence-crop")).toHaveLength(1);
    // The headline change has a box on both sides, each on its own run's screenshot.
    const crops = within(items[1]!).getAllByRole("img");
    expect(crops.map((i) => i.getAttribute("src"))).toEqual(["/api/snapshots/s1/screenshot", "/api/snapshots/s3/screenshot"]);
    expect(within(items[1]!).getAllByTestId("evidence-box")).toHaveLength(2);
    expect(items[2]!.textContent).toContain("ΔE 52.1");
    expect($().getByText("No changes.")).toBeTruthy();
  });

  test("filters by kind and severity with counts", () => {
    renderUi(<Harness />);
    const kinds = $().getByRole("group", { name: "Filter by kind" });
    const cta = within(kinds).getByRole("button", { name: "CTA · 1" });
    expect((within(kinds).getByRole("button", { name: "Layout · 0" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(cta);
    expect(cta.getAttribute("aria-pressed")).toBe("true");
    expect($().getAllByTestId("change-item")).toHaveLength(1);
    fireEvent.click(cta);
    fireEvent.click(within($().getByRole("group", { name: "Filter by severity" })).getByRole("button", { name: "Low · 1" }));
    const left = $().getAllByTestId("change-item");
    expect(left).toHaveLength(1);
    expect(left[0]!.textContent).toContain("Palette");
  });

  test("one website: a before/after slider that moves the cut, and the heat map beside it", async () => {
    const m = mockFetch({
      "GET /api/comparisons/c1/changes/visual": { blob: new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }) },
    });
    restore = m.restore;
    const created: string[] = [];
    const createObjectURL = URL.createObjectURL;
    URL.createObjectURL = () => (created.push("blob:heat"), "blob:heat");
    try {
      renderUi(<Harness />);
      fireEvent.click($().getByRole("button", { name: "Compare Orbit before and after" }));
      const compare = $().getByTestId("pixel-compare");
      const range = within(compare).getByRole("slider", { name: "Before and after divider" }) as HTMLInputElement;
      expect(range.value).toBe("50");
      fireEvent.change(range, { target: { value: "20" } });
      expect(range.getAttribute("aria-valuetext")).toBe("20% before, 80% after");
      expect(within(compare).getByTestId("after-layer").style.clipPath).toBe("inset(0 0 0 20%)");
      expect(within(compare).getByAltText("Before (Run #1)").getAttribute("src")).toBe("/api/snapshots/s1/screenshot");
      const heat = await within(compare).findByTestId("heat-map");
      expect(heat.getAttribute("src")).toBe("blob:heat");
      expect(heat.getAttribute("alt")).toContain("Pixel heat map of Orbit (desktop) from Run #1 to Run #2");
      expect(m.calls[0]!.path).toBe(
        "/api/comparisons/c1/changes/visual?targetId=t1&viewport=desktop&page=home&colorScheme=light&from=r1&to=r2",
      );
      // Only the chosen website's changes are listed.
      expect($().queryByText("No changes.")).toBeNull();
      fireEvent.click(within(compare).getByRole("radio", { name: "Mobile" }));
      await waitFor(() => expect(m.calls.at(-1)!.path).toContain("viewport=mobile"));
      expect(within($().getByTestId("pixel-compare")).getByAltText("Before (Run #1)").getAttribute("src")).toBe(
        "/api/snapshots/s2/screenshot",
      );
    } finally {
      URL.createObjectURL = createObjectURL;
    }
  });

  test("runs with several pages and dark variants: the page and scheme are chosen, and the screenshots and heat map follow", async () => {
    const m = mockFetch({
      "GET /api/comparisons/c1/changes/visual": { blob: new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }) },
    });
    restore = m.restore;
    const createObjectURL = URL.createObjectURL;
    URL.createObjectURL = () => "blob:heat";
    const variant = (s: ReturnType<typeof snapshot>, role: "home" | "pricing", colorScheme: "light" | "dark") => ({
      ...s,
      role,
      colorScheme,
    });
    const over: Partial<Data> = {
      before: [variant(snapshot("b-home", "t1"), "home", "light"), variant(snapshot("b-pricing-dark", "t1"), "pricing", "dark")],
      after: [variant(snapshot("a-home", "t1"), "home", "light"), variant(snapshot("a-pricing-dark", "t1"), "pricing", "dark")],
    };
    try {
      renderUi(<Harness over={over} initial={{ targetId: "t1" }} />);
      const switcher = $().getByTestId("variant-switcher");
      expect(within(switcher).getByRole("button", { name: "Home" }).getAttribute("aria-pressed")).toBe("true");
      fireEvent.click(within(switcher).getByRole("button", { name: "Pricing" }));
      fireEvent.click(within(switcher).getByRole("radio", { name: "Dark" }));
      const compare = $().getByTestId("pixel-compare");
      expect(within(compare).getByAltText("Before (Run #1)").getAttribute("src")).toBe("/api/snapshots/b-pricing-dark/screenshot");
      await waitFor(() => expect(m.calls.at(-1)!.path).toContain("page=pricing&colorScheme=dark"));
    } finally {
      URL.createObjectURL = createObjectURL;
    }
  });

  test("a run of one page in light has no page or scheme switcher", () => {
    renderUi(<Harness />);
    expect($().queryByTestId("variant-switcher")).toBeNull();
  });

  test("the heat map's error shows in place", async () => {
    const m = mockFetch({
      "GET /api/comparisons/c1/changes/visual": { status: 404, json: { error: "This website was not captured at desktop in both runs" } },
    });
    restore = m.restore;
    renderUi(<Harness initial={{ targetId: "t1" }} />);
    expect((await $().findByRole("alert")).textContent).toBe("This website was not captured at desktop in both runs");
  });

  test("without two completed runs it says why", () => {
    renderUi(
      <ChangesPage
        data={data({ changes: null, error: "Run #3 did not complete: only completed runs can be compared" })}
        view={{ kinds: new Set(), severities: new Set(), targetId: null, viewport: "desktop", role: "home", scheme: "light" }}
        onViewChange={() => {}}
      />,
    );
    expect($().getByText("Run #3 did not complete: only completed runs can be compared")).toBeTruthy();
  });
});
