// Pages per site in the results: the role switcher, the light/dark switch, the site roll-up, and a
// page whose steps stopped. Old rows (no role fields) read as the home page in light mode.
import "#tests/support/dom";
import { afterEach, expect, test } from "bun:test";
import type { DiffDto, FindingDto, SnapshotDto } from "#server/modules/comparisons/model";
const { cleanup, fireEvent, within } = await import("@testing-library/react");
const { ResultsPanels } = await import("./components/results/results-panels");
const { rollupMatrix, variantSlice } = await import("./page-variants");
const { diff } = await import("./results-view-kit");
const { $, renderUi, snapshot, target } = await import("./test-utils");

afterEach(cleanup);

type Role = "home" | "pricing" | "signup";
const targets = [target("t1", "Alpha"), target("t2", "Beta"), target("t3", "Gamma")];
/** A snapshot of one site's page: title "Alpha pricing dark" says which it is. */
const shot = (t: string, label: string, role: Role, scheme: "light" | "dark" = "light", over: object = {}) =>
  ({
    ...snapshot(`${t}-${role}-${scheme}`, t, "desktop", { title: `${label} ${role} ${scheme}` }),
    role,
    colorScheme: scheme,
    path: `/${role === "home" ? "" : role}`,
    pageId: `${t}-${role}`,
    step: null,
    ...over,
  }) as SnapshotDto;
const scored = (a: string, b: string, role: Role, overall: number, scheme: "light" | "dark" = "light") =>
  ({ ...diff(`${a}${b}-${role}-${scheme}`, a, b, [0.5, 0.5, 0.5, overall]), role, colorScheme: scheme }) as DiffDto;
const finding = (id: string, role: Role, title: string) =>
  ({
    id,
    group: "ux",
    severity: "high",
    targetId: "t1",
    viewport: "desktop",
    title,
    evidence: {},
    fix: "Make it bigger.",
    source: "rules",
    role,
    colorScheme: "light",
  }) as FindingDto;

const data = {
  targets,
  snapshots: [
    shot("t1", "Alpha", "home"),
    shot("t2", "Beta", "home"),
    shot("t3", "Gamma", "home"),
    shot("t1", "Alpha", "pricing"),
    shot("t2", "Beta", "pricing"),
    shot("t1", "Alpha", "pricing", "dark"),
    shot("t2", "Beta", "pricing", "dark"),
    shot("t1", "Alpha", "signup", "light", { step: { index: 2, error: "No element matches #password" }, extraction: null }),
    shot("t2", "Beta", "signup"),
  ],
  diffs: [
    scored("t1", "t2", "home", 0.6),
    scored("t1", "t3", "home", 0.5),
    scored("t2", "t3", "home", 0.4),
    scored("t1", "t2", "pricing", 0.8),
    scored("t1", "t2", "pricing", 0.3, "dark"),
  ],
  findings: [finding("f1", "home", "Alpha's home CTA is below the fold"), finding("f2", "pricing", "Alpha's pricing CTA is pale")],
};

function panels(over: Partial<Parameters<typeof ResultsPanels>[0]> = {}) {
  return (
    <ResultsPanels
      data={data}
      status="completed"
      viewport="desktop"
      requestedPair={[null, null]}
      onViewportChange={() => {}}
      onPairChange={() => {}}
      {...over}
    />
  );
}

const desktop = () => within($().getByRole("tabpanel"));
const titles = () =>
  desktop()
    .getAllByTestId("screenshot-panel")
    .map((p) => p.parentElement?.textContent ?? "");

test("the role switcher lists the run's roles, shows home first, and filters the matrix, summary, screenshots and findings", () => {
  renderUi(panels());
  const roles = within($().getByRole("group", { name: "Page role" }));
  expect(roles.getAllByRole("button").map((b) => `${b.textContent}:${b.getAttribute("aria-pressed")}`)).toEqual([
    "Home:true",
    "Pricing:false",
    "Sign-up:false",
  ]);
  expect(titles()[0]).toContain("Alpha home light");
  expect(titles()[1]).toContain("Beta home light");
  expect(desktop().getByTestId("score-overallSimilarity").textContent).toContain("60%");
  expect(within(desktop().getByTestId("similarity-matrix")).getByRole("link", { name: /Alpha vs Gamma/ }).textContent).toBe("50%");
  expect(desktop().getByText("Alpha's home CTA is below the fold")).toBeTruthy();
  expect(desktop().queryByText("Alpha's pricing CTA is pale")).toBeNull();

  fireEvent.click(roles.getByRole("button", { name: "Pricing" }));
  expect(titles()[0]).toContain("Alpha pricing light");
  expect(desktop().getByTestId("score-overallSimilarity").textContent).toContain("80%");
  // Gamma has no pricing page: its pairs are not scored for this role.
  expect(within(desktop().getByTestId("similarity-matrix")).getByRole("link", { name: /Alpha vs Gamma/ }).textContent).toBe("n/a");
  expect(desktop().getByText("Alpha's pricing CTA is pale")).toBeTruthy();
  expect(desktop().queryByText("Alpha's home CTA is below the fold")).toBeNull();
});

test("the site roll-up is the mean overall similarity over the roles both sites have, labelled as such", () => {
  renderUi(panels());
  const rollup = within(desktop().getByTestId("site-rollup"));
  expect($().getByText("Mean overall similarity of each pair of sites over the page roles both have, desktop.")).toBeTruthy();
  const ab = rollup.getByRole("link", { name: /^Alpha vs Beta/ });
  expect(ab.textContent).toBe("70%");
  expect(ab.getAttribute("aria-label")).toBe("Alpha vs Beta: 70% overall similarity (mean of Home, Pricing)");
  expect(rollup.getByRole("link", { name: /^Alpha vs Gamma/ }).getAttribute("aria-label")).toBe(
    "Alpha vs Gamma: 50% overall similarity (mean of Home)",
  );
  const rows = rollupMatrix(targets, data.diffs, "desktop", "dark");
  expect(rows[0]![1]).toEqual({ pair: ["t1", "t2"], roles: ["pricing"], score: 0.3 });
});

test("a light/dark switch appears when the run has dark variants, and shows them", () => {
  renderUi(panels({ role: "pricing" }));
  const scheme = $().getByRole("radiogroup", { name: "Colour scheme" });
  fireEvent.click(within(scheme).getByRole("radio", { name: "Dark" }));
  expect(titles()[0]).toContain("Alpha pricing dark");
  expect(desktop().getByTestId("score-overallSimilarity").textContent).toContain("30%");
});

test("a page whose steps stopped shows the step, its error and the screenshot of where it stopped", () => {
  renderUi(panels({ role: "signup" }));
  expect(desktop().getByTestId("step-stopped").textContent).toBe("Stopped at step 2: No element matches #password");
  expect(desktop().getByRole("img", { name: "Alpha desktop screenshot where step 2 stopped" }).getAttribute("src")).toBe(
    "/api/snapshots/t1-signup-light/screenshot",
  );
  expect(titles()[1]).toContain("Beta signup light");
});

test("old rows without role fields read as the home page in light mode: no switcher", () => {
  const old = {
    targets,
    snapshots: [snapshot("s1", "t1", "desktop"), snapshot("s2", "t2", "desktop")],
    diffs: [diff("d", "t1", "t2", 0.7)],
    findings: [],
  };
  expect(variantSlice(old, "home", "light").snapshots).toHaveLength(2);
  expect(variantSlice(old, "pricing", "light").snapshots).toHaveLength(0);
  renderUi(panels({ data: old }));
  expect($().queryByTestId("variant-switcher")).toBeNull();
  expect($().queryByTestId("site-rollup")).toBeNull();
  expect(desktop().getAllByTestId("screenshot-panel")).toHaveLength(2);
});
