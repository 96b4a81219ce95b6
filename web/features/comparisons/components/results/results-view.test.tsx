import "#tests/support/dom";
import { afterEach, describe, expect, mock, test } from "bun:test";
import type { FindingDto } from "#server/modules/comparisons/model";
import type { FilmstripDto } from "#server/modules/filmstrip/model";
const { fireEvent } = await import("@testing-library/react");
const { useShellFocus } = await import("#web/lib/shell-focus");
const { $, comparison, extraction, renderUi, snapshot, target } = await import("../../test-utils");
const { diff, resultsView } = await import("../../results-view-kit");

afterEach(() => useShellFocus.getState().setFocus(false));

const finding = (id: string, targetId: string, viewport: "desktop" | "mobile"): FindingDto => ({
  id,
  group: "design",
  severity: "medium",
  targetId,
  viewport,
  title: `Finding ${id}`,
  evidence: {},
  fix: "Fix it",
  source: "rules",
});
const film = (snapshotId: string, targetId: string, times: number[]): FilmstripDto => ({
  snapshotId,
  targetId,
  viewport: "desktop",
  width: 1440,
  height: 900,
  frames: times.map((ms, i) => ({ ms, url: `/api/snapshots/${snapshotId}/filmstrip/${i}` })),
});
const data = {
  comparison: comparison({ status: "completed" as const, targetCount: 3 }),
  targets: [target("t1", "Alpha"), target("t2", "Beta"), target("t3", "Gamma")],
  snapshots: [snapshot("s1", "t1", "desktop"), snapshot("s2", "t2", "desktop"), snapshot("s3", "t3", "desktop")],
  diffs: [diff("d12", "t1", "t2", 0.81), diff("d13", "t1", "t3", 0.31), diff("d23", "t2", "t3", 0.55)],
  findings: [finding("f1", "t1", "desktop"), finding("f2", "t3", "desktop"), finding("f3", "t2", "mobile")],
  filmstrips: [film("s1", "t1", [120, 450]), film("s2", "t2", [300]), film("s3", "t3", [80])],
};
const view = resultsView(data);

describe("similarity matrix", () => {
  test("a real table of every pair, heat-coloured, each cell opening its pair", () => {
    const onPairChange = mock(() => {});
    renderUi(view({ onPairChange }));
    const table = $().getByTestId("similarity-matrix");
    expect([...table.querySelectorAll("thead th[scope=col]")].map((th) => th.textContent)).toEqual(["Alpha", "Beta", "Gamma"]);
    expect([...table.querySelectorAll("tbody th[scope=row]")].map((th) => th.textContent)).toEqual(["Alpha", "Beta", "Gamma"]);
    const cell = $().getByRole("link", { name: "Beta vs Gamma: 55% overall similarity" });
    expect(cell.getAttribute("href")).toBe("?viewport=desktop&a=t2&b=t3");
    expect($().getAllByRole("link", { name: /overall similarity$/ })).toHaveLength(6);
    // The pair on screen is marked.
    expect($().getByRole("link", { name: "Alpha vs Beta: 81% overall similarity" }).getAttribute("aria-current")).toBe("true");
    fireEvent.click(cell);
    expect(onPairChange).toHaveBeenCalledWith(["t2", "t3"]);
  });
});

describe("pair views", () => {
  test("100 % shows the capture at its natural width; Fit at most the panel's", () => {
    const r = renderUi(view({ zoom: "100" }));
    const img = () => $().getByRole("img", { name: "Alpha desktop screenshot" });
    expect((img().parentElement as HTMLElement).style.width).toBe("1440px");
    r.unmount();
    renderUi(view({ zoom: "50" }));
    expect((img().parentElement as HTMLElement).style.width).toBe("720px");
  });

  test("slider and onion skin stack the pair in one scroller with a control", () => {
    const r = renderUi(view({ mode: "slider" }));
    expect($().queryAllByTestId("screenshot-panel")).toHaveLength(0);
    expect($().getByTestId("compare-stage")).toBeTruthy();
    expect($().getByRole("slider", { name: /Slider position/ })).toBeTruthy();
    expect($().getByRole("img", { name: "Beta desktop screenshot" }).style.clipPath).toContain("inset(");
    r.unmount();
    renderUi(view({ mode: "onion" }));
    expect($().getByRole("slider", { name: "Opacity of Beta over Alpha" })).toBeTruthy();
    expect($().getByRole("img", { name: "Beta desktop screenshot" }).style.opacity).toBe("0.5");
  });

  test("mode and zoom controls report the choice", () => {
    const onModeChange = mock(() => {});
    const onZoomChange = mock(() => {});
    renderUi(view({ onModeChange, onZoomChange }));
    fireEvent.click($().getByRole("radio", { name: "Onion skin" }));
    fireEvent.click($().getByRole("radio", { name: "100 %" }));
    expect(onModeChange).toHaveBeenCalledWith("onion");
    expect(onZoomChange).toHaveBeenCalledWith("100");
  });

  test("overlays: one category at a time", () => {
    renderUi(view());
    fireEvent.click($().getByRole("switch", { name: "Layout" }));
    fireEvent.click($().getByRole("switch", { name: "Elements" }));
    expect($().getByRole("switch", { name: "Layout" }).getAttribute("aria-checked")).toBe("false");
    expect($().getByRole("switch", { name: "Elements" }).getAttribute("aria-checked")).toBe("true");
    // Every box says what it is to hover, focus and screen readers.
    const boxes = [...document.querySelectorAll<HTMLElement>("[data-overlay-box]")];
    expect(boxes.length).toBeGreaterThan(0);
    for (const b of boxes) expect(b.getAttribute("aria-label")).toBeTruthy();
    // Over the capture only outlines: no fill, and the fold is a line whose name is in the legend.
    for (const b of boxes) expect(b.style.background).toBe("");
    expect(document.querySelector('[data-testid="fold-line"]')?.textContent ?? "").toBe("");
    expect($().getAllByText("Dashed line: the fold (the first screen)").length).toBeGreaterThan(0);
  });
});

describe("findings filters", () => {
  test("the count says what is hidden and Show all shows what the export holds", () => {
    renderUi(view());
    expect($().getByTestId("findings-count").textContent).toBe("1 of 3 — desktop · Alpha vs Beta");
    expect($().getByText("Finding f1")).toBeTruthy();
    fireEvent.click($().getByRole("button", { name: "Show all 3" }));
    expect($().getByTestId("findings-count").textContent).toBe("3 of 3");
    for (const t of ["Finding f1", "Finding f2", "Finding f3"]) expect($().getByText(t)).toBeTruthy();
  });
});

describe("accessibility findings", () => {
  test("an axe finding shows its rule id, WCAG level, count and an example element and selector as code", () => {
    const axe: FindingDto = {
      ...finding("fa", "t1", "desktop"),
      group: "ux",
      severity: "high",
      rule: "image-alt",
      title: "Alpha has 2 images without alt text",
      evidence: {
        "axe-core rule": "image-alt (axe-core 4.14.1)",
        "WCAG level": "A (1.1.1, WCAG 2.0)",
        "Alpha elements failing": "2 of 10 images",
        "Example element": '<img src="/hero.jpg">',
        "Example selector": "section.hero > img",
        Audited: "Once per page, at desktop width (1440 × 900); what only the phone layout shows (a menu button, say) is not audited",
      },
    };
    renderUi(resultsView({ ...data, findings: [axe] })());
    expect($().getByLabelText("axe-core rule image-alt").textContent).toBe("image-alt");
    expect($().getByText("WCAG A")).toBeTruthy();
    expect($().getByText("2 of 10 images")).toBeTruthy();
    expect($().getByText('<img src="/hero.jpg">').tagName).toBe("CODE");
    expect($().getByText("section.hero > img").tagName).toBe("CODE");
    // Where the audit looked is said beside the finding, as plain evidence.
    expect($().getByText(/^Once per page, at desktop width/).tagName).not.toBe("CODE");
  });
});

describe("focus", () => {
  test("Focus flags the document so the shell steps aside; Escape and leaving undo it", () => {
    const r = renderUi(view());
    fireEvent.click($().getByRole("button", { name: "Focus" }));
    expect(document.documentElement.getAttribute("data-focus")).toBe("on");
    expect(useShellFocus.getState().focus).toBe(true); // what the app layout reads
    expect($().getByRole("button", { name: "Focus" }).getAttribute("aria-pressed")).toBe("true");
    fireEvent.keyDown(window, { key: "Escape" });
    expect(document.documentElement.hasAttribute("data-focus")).toBe(false);
    fireEvent.click($().getByRole("button", { name: "Focus" }));
    r.unmount();
    expect(document.documentElement.hasAttribute("data-focus")).toBe(false);
  });
});

describe("filmstrip", () => {
  test("every site on one time axis, with frames and FCP/LCP marked", () => {
    renderUi(view());
    const region = $().getByRole("region", { name: "Filmstrip" });
    const rows = region.querySelectorAll("[data-testid=filmstrip-row]");
    expect(rows).toHaveLength(3);
    expect([...region.querySelectorAll("thead th")].map((th) => th.textContent)).toEqual([
      "0.0 s",
      "0.1 s",
      "0.2 s",
      "0.3 s",
      "0.4 s",
      "0.5 s",
    ]);
    expect($().getAllByRole("img", { name: /^Alpha at / }).length).toBeGreaterThan(0);
    expect(
      $()
        .getAllByRole("img", { name: /^Gamma at / })[0]!
        .getAttribute("src"),
    ).toBe("/api/snapshots/s3/filmstrip/0");
    expect(region.querySelectorAll(".di-film-mark-fcp").length).toBeGreaterThan(1);
  });

  test("each site's LCP is marked in the column of its time, apart from or with its FCP; none without one", () => {
    const timed = (id: string, targetId: string, fcpMs: number, lcpMs: number | null) => {
      const base = extraction({ viewport: "desktop" });
      return snapshot(id, targetId, "desktop", { extraction: { ...base, timing: { ...base.timing, fcpMs, lcpMs } } });
    };
    renderUi(
      view({ data: { ...data, snapshots: [timed("s1", "t1", 120, 450), timed("s2", "t2", 300, 300), timed("s3", "t3", 80, null)] } }),
    );
    const region = $().getByRole("region", { name: "Filmstrip" });
    const axis = [...region.querySelectorAll("thead th")].map((th) => th.textContent);
    /** The times of the columns whose cell in `row` carries `mark`, as the axis labels them. */
    const marked = (row: Element, mark: "fcp" | "lcp") =>
      [...row.querySelectorAll("td")].flatMap((td, i) => (td.querySelector(`.di-film-marks .di-film-mark-${mark}`) ? [axis[i]] : []));
    const [alpha, beta, gamma] = [...region.querySelectorAll("[data-testid=filmstrip-row]")];
    // 450 ms is marked where the label rounds it to, 0.5 s; the row says the exact figure.
    expect(marked(alpha!, "lcp")).toEqual(["0.5 s"]);
    expect(marked(alpha!, "fcp")).toEqual(["0.1 s"]);
    expect(alpha!.querySelector("th")!.textContent).toContain("LCP 0.5 s");
    expect(alpha!.querySelectorAll('[data-mark="lcp"]')).toHaveLength(1);
    // Painted all at once: one frame carries both marks.
    expect(marked(beta!, "lcp")).toEqual(["0.3 s"]);
    expect(beta!.querySelectorAll('[data-mark="fcp lcp"]')).toHaveLength(1);
    expect(marked(gamma!, "lcp")).toEqual([]);
    expect(gamma!.querySelector("th")!.textContent).toContain("LCP –");
  });

  test("each row names its Speed Index, visually complete and TBT, marks visually complete, and says when they were not measured", () => {
    const base = extraction({ viewport: "desktop" });
    const measuredBy = {
      speedIndex: { method: "Filmstrip of the capture's own load: 9 trace screenshots", reason: null },
      tbt: { method: "Long Tasks API on the capture's own load", reason: null },
    };
    const visual = snapshot("s1", "t1", "desktop", {
      extraction: { ...base, timing: { ...base.timing, speedIndexMs: 310, visuallyCompleteMs: 420, tbtMs: 80, measuredBy } },
    });
    // Beta's capture predates the measures; Gamma's could not record its load.
    const notRecorded = {
      speedIndex: { method: null, reason: "No frame of the load was recorded" },
      tbt: { method: null, reason: "The browser reported no long tasks (it has no Long Tasks API)" },
    };
    const gamma = snapshot("s3", "t3", "desktop", {
      extraction: {
        ...base,
        timing: { ...base.timing, speedIndexMs: null, visuallyCompleteMs: null, tbtMs: null, measuredBy: notRecorded },
      },
    });
    renderUi(view({ data: { ...data, snapshots: [visual, snapshot("s2", "t2", "desktop"), gamma] } }));
    const region = $().getByRole("region", { name: "Filmstrip" });
    const [alpha, beta, g] = [...region.querySelectorAll("[data-testid=filmstrip-row]")];
    expect(alpha!.querySelector("[data-testid=filmstrip-speed-index]")!.textContent).toBe("SI 0.3 s · VC 0.4 s");
    expect(alpha!.querySelector("[data-testid=filmstrip-speed-index]")!.getAttribute("title")).toContain("9 trace screenshots");
    expect(alpha!.querySelector("[data-testid=filmstrip-tbt]")!.textContent).toBe("TBT 80 ms");
    expect(alpha!.querySelectorAll(".di-film-marks .di-film-mark-vc")).toHaveLength(1);
    expect(beta!.querySelector("[data-testid=filmstrip-speed-index]")!.textContent).toBe("SI –");
    expect(beta!.querySelector("[data-testid=filmstrip-speed-index]")!.getAttribute("title")).toBe("Not measured for this capture");
    expect(g!.querySelector("[data-testid=filmstrip-tbt]")!.textContent).toBe("TBT –");
    expect(g!.querySelector("[data-testid=filmstrip-tbt]")!.getAttribute("title")).toContain("Long Tasks API");
    expect(g!.querySelectorAll(".di-film-marks .di-film-mark-vc")).toHaveLength(0);
  });

  test("without recordings it says so", () => {
    renderUi(view({ data: { ...data, filmstrips: [] } }));
    expect($().getByText("No filmstrip was recorded for the desktop captures. Run the analysis again to record one.")).toBeTruthy();
  });
});
