import "#tests/support/dom";
import { afterEach, expect, mock, test } from "bun:test";
const { cleanup, fireEvent, waitFor, within } = await import("@testing-library/react");
const { PageEditor } = await import("./components/page-editor");
const { $, mockFetch, renderUi } = await import("#tests/support/ui");

let restore = () => {};
afterEach(() => {
  restore();
  cleanup();
});

const page = { id: "p2", targetId: "t1", path: "/pricing", url: "https://acme.test/pricing", role: "pricing" as const, steps: [] };
const type = (label: string, value: string) => fireEvent.change($().getByLabelText(label), { target: { value } });
const save = () => fireEvent.click($().getByRole("button", { name: "Save page" }));

test("the step editor checks the list before saving and names the step that breaks a rule", async () => {
  const f = mockFetch({});
  restore = f.restore;
  renderUi(<PageEditor targetId="t1" siteUrl="https://acme.test/" page={page} onClose={() => {}} onSaved={() => {}} />);
  fireEvent.click($().getByRole("button", { name: "Add step" }));
  fireEvent.click($().getByRole("button", { name: "Add step" }));
  expect(
    $()
      .getAllByRole("listitem")
      .map((li) => li.getAttribute("aria-label")),
  ).toEqual(["Step 1", "Step 2"]);
  // A click shows a selector and a text; step 1 gets a selector, step 2 becomes a goto off the site.
  type("Step 1 selector", "#accept");
  expect($().queryByLabelText("Step 1 url")).toBeNull();
  fireEvent.click($().getByLabelText("Step 2 type"));
  fireEvent.click(await $().findByRole("option", { name: "Go to a page" }));
  expect($().queryByLabelText("Step 2 selector")).toBeNull();
  type("Step 2 url", "https://elsewhere.test/pricing");
  save();
  expect((await $().findByTestId("steps-error")).textContent).toBe("Step 2: a goto stays on the site (https://acme.test)");
  const step2 = $().getByRole("listitem", { name: "Step 2" });
  expect(step2.querySelector("[data-invalid]")).toBeTruthy();
  expect($().getByRole("listitem", { name: "Step 1" }).querySelector("[data-invalid]")).toBeNull();
  expect(f.calls).toHaveLength(0);

  // Moving the goto up makes it step 1; the fix is sent in the new order.
  fireEvent.click(within(step2).getByRole("button", { name: "Move step 2 up" }));
  expect(($().getByLabelText("Step 1 url") as HTMLInputElement).value).toBe("https://elsewhere.test/pricing");
  type("Step 1 url", "/pricing?annual=1");
  restore();
  const g = mockFetch({ "PATCH /api/pages/p2": (c) => ({ json: { ...page, steps: (c.body as { steps: unknown[] }).steps } }) });
  restore = g.restore;
  save();
  await waitFor(() => expect(g.calls).toHaveLength(1));
  expect(g.calls[0]!.body).toEqual({
    path: "/pricing",
    role: "pricing",
    steps: [
      { type: "goto", url: "/pricing?annual=1" },
      { type: "click", selector: "#accept" },
    ],
  });
});

test("the server's 400 naming a step is shown with the steps, that step marked", async () => {
  const f = mockFetch({
    "POST /api/targets/t1/pages": { status: 400, json: { error: "Step 1: a fill types a secret only on the site's own pages" } },
  });
  restore = f.restore;
  const onSaved = mock(() => {});
  renderUi(<PageEditor targetId="t1" siteUrl="https://acme.test/" page={null} onClose={() => {}} onSaved={onSaved} />);
  type("Path", "https://acme.test/login");
  fireEvent.click($().getByRole("button", { name: "Add step" }));
  fireEvent.click($().getByLabelText("Step 1 type"));
  fireEvent.click(await $().findByRole("option", { name: "Fill a field" }));
  type("Step 1 selector", "#password");
  type("Step 1 value", "{{secret:password}}");
  expect($().getByText(/Uses the site's secret password/)).toBeTruthy();
  save();
  expect((await $().findByTestId("steps-error")).textContent).toBe("Step 1: a fill types a secret only on the site's own pages");
  expect($().getByRole("listitem", { name: "Step 1" }).querySelector("[data-invalid]")).toBeTruthy();
  expect(f.calls[0]!.body).toEqual({
    path: "/login",
    role: "pricing",
    steps: [{ type: "fill", selector: "#password", value: "{{secret:password}}" }],
  });
  expect(onSaved).not.toHaveBeenCalled();
});

test("a path on another origin is refused before anything is sent", async () => {
  const f = mockFetch({});
  restore = f.restore;
  renderUi(<PageEditor targetId="t1" siteUrl="https://acme.test/" page={null} onClose={() => {}} onSaved={() => {}} />);
  type("Path", "https://other.test/pricing");
  save();
  expect(await $().findByText("A page is on the site's own origin (https://acme.test)")).toBeTruthy();
  expect(f.calls).toHaveLength(0);
});
