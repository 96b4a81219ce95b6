import "#tests/support/dom";
import { afterEach, beforeEach, describe, expect, mock, test } from "bun:test";
import type { FindingDto } from "#server/modules/comparisons/model";
const { act, fireEvent, waitFor } = await import("@testing-library/react");
const { NotEnoughSnapshots } = await import("./components/results/not-enough-snapshots");
const { AnalysisSummary } = await import("./components/results/analysis-summary");
const { ComparisonNotFound } = await import("./components/results/comparison-not-found");
const { fetchReport } = await import("./api");
const { useComparisonLive } = await import("./store");
const { $, comparison, mockFetch, renderUi, snapshot, target } = await import("./test-utils");
const { auth, diff: diffOf, resultsView } = await import("./results-view-kit");

const diff = (id: string, a: string, b: string, scores: [number, number, number, number]) =>
  diffOf(id, a, b, scores, { paletteDistance: 0.8 });

let restore = () => {};
afterEach(() => restore());
beforeEach(() => useComparisonLive.setState({ byId: {} }));

describe("Not enough snapshots", () => {
  test("completed: nothing was captured", () => {
    renderUi(<NotEnoughSnapshots viewport="mobile" status="completed" />);
    expect($().getByText("Not enough snapshots")).toBeTruthy();
    expect($().getByText("Need at least 2 websites for mobile comparison.")).toBeTruthy();
    expect($().getByTestId("snapshot-status-line").textContent).toBe(
      "No screenshots were captured, possibly due to access restrictions or technical issues.",
    );
  });

  test("any other status: start the analysis", () => {
    for (const status of ["pending", "failed"] as const) {
      const r = renderUi(<NotEnoughSnapshots viewport="desktop" status={status} />);
      expect($().getByText("Need at least 2 websites for desktop comparison.")).toBeTruthy();
      expect($().getByTestId("snapshot-status-line").textContent).toBe("Start the analysis to generate comparison data.");
      r.unmount();
    }
  });
});

test("summary shows the four similarities as percentages", () => {
  renderUi(<AnalysisSummary diff={diff("d", "t1", "t2", [0.873, 0.5, 0.0449, 0.61])} labels={["Alpha", "Beta"]} />);
  expect($().getByText("Analysis Summary")).toBeTruthy();
  expect($().getByTestId("score-colorSimilarity").textContent).toContain("87%");
  expect($().getByTestId("score-layoutSimilarity").textContent).toContain("50%");
  expect($().getByTestId("score-contentSimilarity").textContent).toContain("4%");
  expect($().getByTestId("score-overallSimilarity").textContent).toContain("61%");
  expect($().getByText("Alpha vs Beta")).toBeTruthy();
});

test("summary adds design similarity (no copy) when the pair has it", () => {
  renderUi(
    <AnalysisSummary diff={{ ...diff("d", "t1", "t2", [0.873, 0.5, 0.0449, 0.61]), designSimilarity: 0.914 }} labels={["Alpha", "Beta"]} />,
  );
  expect($().getByTestId("score-designSimilarity").textContent).toContain("91%");
});

test("summary leaves design similarity out for a diff without it", () => {
  renderUi(<AnalysisSummary diff={diff("d", "t1", "t2", [0.873, 0.5, 0.0449, 0.61])} labels={["Alpha", "Beta"]} />);
  expect($().queryByTestId("score-designSimilarity")).toBeNull();
});

test("missing comparison", () => {
  renderUi(<ComparisonNotFound />);
  expect($().getByText("Comparison Not Found")).toBeTruthy();
  expect($().getByText("The comparison you're looking for doesn't exist.")).toBeTruthy();
  expect(
    $()
      .getByRole("link", { name: /Back to Comparisons/ })
      .getAttribute("href"),
  ).toBe("/comparison");
});

describe("results view", () => {
  const targets = [target("t1", "Alpha"), target("t2", "Beta"), target("t3", "Gamma")];
  const finding: FindingDto = {
    id: "f1",
    group: "timing",
    severity: "high",
    targetId: "t2",
    viewport: "desktop",
    title: "Beta paints its hero 2.3 s later than Alpha",
    evidence: { "Beta LCP": "3.4 s", "Alpha LCP": "1.1 s" },
    fix: "Serve the hero image as AVIF under 200 KB.",
    source: "rules",
  };
  const data = {
    comparison: comparison({ status: "completed" as const, targetCount: 3 }),
    targets,
    snapshots: [
      snapshot("s1", "t1", "desktop"),
      snapshot("s2", "t2", "desktop"),
      snapshot("s3", "t3", "desktop"),
      snapshot("m1", "t1", "mobile"),
    ],
    diffs: [diff("d12", "t1", "t2", [0.9, 0.8, 0.7, 0.81]), diff("d13", "t1", "t3", [0.2, 0.3, 0.4, 0.31])],
    findings: [finding],
  };
  const view = resultsView(data);

  test("two panels with labels, the pair's scores and findings beside them", () => {
    renderUi(view());
    expect($().getByRole("link", { name: /Back/ }).getAttribute("href")).toBe("/comparison?id=c1");
    const panels = $().getAllByTestId("screenshot-panel");
    expect(panels).toHaveLength(2);
    expect(panels[0]!.style.height).toBe("600px");
    expect($().getByRole("img", { name: "Alpha desktop screenshot" }).getAttribute("src")).toBe("/api/snapshots/s1/screenshot");
    expect($().getByRole("img", { name: "Beta desktop screenshot" })).toBeTruthy();
    expect($().getByTestId("score-overallSimilarity").textContent).toContain("81%");
    expect($().getByText(finding.title)).toBeTruthy();
    expect($().getByText("3.4 s")).toBeTruthy();
    // Three sites: the user picks the pair.
    expect($().getByRole("group", { name: "Sites to compare" })).toBeTruthy();
  });

  test("the chosen pair decides the screenshots and the scores", () => {
    renderUi(view({ requestedPair: ["t1", "t3"] }));
    expect($().getByRole("img", { name: "Gamma desktop screenshot" })).toBeTruthy();
    expect($().getByTestId("score-overallSimilarity").textContent).toContain("31%");
    expect($().queryByText(finding.title)).toBeNull(); // that finding is about Beta
  });

  test("a viewport with one snapshot says so", () => {
    renderUi(view({ viewport: "mobile" }));
    expect($().getByText("Not enough snapshots")).toBeTruthy();
    expect($().getByText("Need at least 2 websites for mobile comparison.")).toBeTruthy();
    expect($().queryByText("Analysis Summary")).toBeNull();
  });

  test("a site without a screenshot in the pair shows the placeholder", () => {
    renderUi(view({ data: { ...data, snapshots: data.snapshots.filter((s) => s.id !== "s3") }, requestedPair: ["t1", "t3"] }));
    expect($().getByText("No screenshot available")).toBeTruthy();
  });

  test("overlays draw the extraction over the screenshot, scaled to the page frame", () => {
    renderUi(view());
    const boxes = () => document.querySelectorAll<HTMLElement>("[data-overlay-box]");
    expect(boxes()).toHaveLength(0);
    fireEvent.click($().getByRole("switch", { name: "Layout" }));
    // Two panels × (header + hero); the hero starts at y=80 of a 2000 px page, full width.
    const hero = [...boxes()].filter((b) => b.textContent === "hero");
    expect(hero).toHaveLength(2);
    expect(hero[0]!.style.top).toBe("4%");
    expect(hero[0]!.style.width).toBe("100%");
    expect($().getAllByText("3 columns · radius 8px · gap 64px")).toHaveLength(2);

    fireEvent.click($().getByRole("switch", { name: "Elements" }));
    expect($().getAllByText("CTA · Start free trial")).toHaveLength(2);
    expect($().getAllByText("Form · 3 inputs")).toHaveLength(2);
    expect($().getAllByText("24 links (9 above fold) · 5 images")).toHaveLength(2);

    fireEvent.click($().getByRole("switch", { name: "Typography" }));
    expect($().getAllByText("H1 · Inter 48px / 700")).toHaveLength(2);

    fireEvent.click($().getByRole("switch", { name: "Colors" }));
    expect($().getAllByText("62%").length).toBeGreaterThanOrEqual(2); // white's share of the palette
  });

  test("a run that finishes while the page is open reloads the results", async () => {
    const f = mockFetch({
      "GET /api/comparisons/c1": { json: comparison({ status: "completed" }) },
      "GET /api/comparisons/c1/targets": { json: targets },
    });
    restore = f.restore;
    const onRunFinished = mock(() => {});
    renderUi(
      view({
        data: { ...data, comparison: comparison({ status: "running", progress: { done: 2, total: 6, stage: "Scoring" } }) },
        onRunFinished,
      }),
    );
    expect($().getByText("Analysis in Progress")).toBeTruthy();
    const { applyComparisonMessage } = await import("./store");
    act(() => {
      applyComparisonMessage({ type: "COMPARISON_STATUS", payload: { comparisonId: "c1", status: "completed", progress: null } });
    });
    await waitFor(() => expect(onRunFinished).toHaveBeenCalledTimes(1));
  });

  test("the header shows the Share control the route hands it, beside Export", async () => {
    const r = renderUi(view({ share: <button type="button">Share</button> }));
    expect($().getByRole("button", { name: "Share" })).toBeTruthy();
    expect($().getByRole("button", { name: /Export/ })).toBeTruthy();
    await act(async () => r.unmount());
  });
});

test("export fetches the report with the bearer token, refreshing once on 401", async () => {
  let n = 0;
  const f = mockFetch({
    "GET /api/comparisons/c1/export": () =>
      ++n === 1 ? { status: 401, json: { error: "expired" } } : { json: "<!doctype html><h1>Report</h1>" },
  });
  restore = f.restore;
  const blob = await fetchReport("c1", "html", auth);
  expect(await blob.text()).toBe("<!doctype html><h1>Report</h1>");
  expect(f.calls.map((c) => [c.path, c.authorization])).toEqual([
    ["/api/comparisons/c1/export?format=html", "Bearer tok"],
    ["/api/comparisons/c1/export?format=html", "Bearer tok2"],
  ]);
});
