import "#tests/support/dom";
import { afterEach, expect, mock, test } from "bun:test";
const { cleanup, fireEvent, waitFor } = await import("@testing-library/react");
const { DiscoveryPicker } = await import("./components/discovery-picker");
const { SitePages } = await import("./components/site-pages");
const { $, mockFetch, renderUi } = await import("#tests/support/ui");

let restore = () => {};
afterEach(() => {
  restore();
  cleanup();
});

const home = { id: "p1", targetId: "t1", path: "/", url: "https://acme.test/", role: "home" as const, steps: [] };
const found = {
  pages: [
    { url: "https://acme.test/", path: "/", role: "home", title: "Acme", source: "nav" },
    { url: "https://acme.test/plans", path: "/plans", role: "pricing", title: "Plans and pricing", source: "nav" },
    { url: "https://acme.test/blog/", path: "/blog/", role: "blog", title: null, source: "sitemap" },
    { url: "https://acme.test/tour", path: "/tour", role: "features", title: "Tour", source: "sitemap" },
  ],
  disallowed: ["/admin", "/private/report"],
};

test("Find pages lists proposals with their roles and sources, says what robots.txt disallows, and adds the picked ones", async () => {
  let n = 1;
  const f = mockFetch({
    "POST /api/targets/t1/discover": { json: found },
    "POST /api/targets/t1/pages": (c) => ({ status: 201, json: { id: `p${++n}`, url: "", steps: [], ...(c.body as object) } }),
  });
  restore = f.restore;
  const onAdded = mock(() => {});
  const onClose = mock(() => {});
  renderUi(<DiscoveryPicker targetId="t1" label="Acme" existing={[home]} onClose={onClose} onAdded={onAdded} />);

  const table = await $().findByTestId("discovered-pages");
  // The home page is already followed: not offered again.
  const rows = [...table.querySelectorAll("tbody tr")].map((r) => r.textContent);
  expect(rows).toEqual(["/plansPlans and pricingPricingNavigation", "/blog/No titleBlogSitemap", "/tourTourFeaturesSitemap"]);
  expect($().getByTestId("disallowed-pages").textContent).toBe("Disallowed by robots.txt (not fetched, not proposed)/admin/private/report");
  expect(($().getByRole("button", { name: /Add\s+pages?/ }) as HTMLButtonElement).disabled).toBe(true);

  fireEvent.click($().getByRole("checkbox", { name: "Add /plans" }));
  fireEvent.click($().getByRole("checkbox", { name: "Add /tour" }));
  // The suggested role can be changed before adding.
  fireEvent.click($().getByLabelText("Role of /tour"));
  fireEvent.click(await $().findByRole("option", { name: "Docs" }));
  fireEvent.click($().getByRole("button", { name: "Add 2 pages" }));

  await waitFor(() => expect(onAdded).toHaveBeenCalled());
  expect(f.calls.filter((c) => c.path === "/api/targets/t1/pages").map((c) => c.body)).toEqual([
    { path: "/plans", role: "pricing" },
    { path: "/tour", role: "docs" },
  ]);
  expect(onClose).toHaveBeenCalled();
});

test("a page the server refuses is named; the others are added", async () => {
  const f = mockFetch({
    "POST /api/targets/t1/discover": { json: found },
    "POST /api/targets/t1/pages": (c) =>
      (c.body as { path: string }).path === "/blog/"
        ? { status: 409, json: { error: "A site has at most 20 pages" } }
        : { status: 201, json: { id: "p9", url: "", steps: [], ...(c.body as object) } },
  });
  restore = f.restore;
  const onAdded = mock((_: unknown[]) => {});
  const onClose = mock(() => {});
  renderUi(<DiscoveryPicker targetId="t1" label="Acme" existing={[home]} onClose={onClose} onAdded={onAdded} />);
  fireEvent.click(await $().findByRole("checkbox", { name: "Add /plans" }));
  fireEvent.click($().getByRole("checkbox", { name: "Add /blog/" }));
  fireEvent.click($().getByRole("button", { name: "Add 2 pages" }));
  expect(await $().findByText("Not added: /blog/: A site has at most 20 pages")).toBeTruthy();
  expect(onAdded.mock.calls[0]![0]).toHaveLength(1);
  expect(onClose).not.toHaveBeenCalled();
});

test("a site's pages: path, role and step count; the home page cannot be deleted; Find pages adds to the list", async () => {
  const pricing = {
    id: "p2",
    path: "/pricing",
    url: "https://acme.test/pricing",
    role: "pricing",
    steps: [{ type: "click", text: "Yearly" }],
  };
  const f = mockFetch({
    "GET /api/targets/t1/pages": { json: [home, pricing] },
    "POST /api/targets/t1/discover": { json: found },
    "POST /api/targets/t1/pages": (c) => ({ status: 201, json: { id: "p3", url: "", steps: [], ...(c.body as object) } }),
    "DELETE /api/pages/p2": { status: 204 },
  });
  restore = f.restore;
  renderUi(<SitePages target={{ id: "t1", label: "Acme", url: "https://acme.test/" }} editable />);
  expect(await $().findByRole("listitem", { name: "/pricing (Pricing)" })).toBeTruthy();
  expect($().getByRole("listitem", { name: "/pricing (Pricing)" }).textContent).toContain("1 step");
  expect(($().getByRole("button", { name: "Delete /" }) as HTMLButtonElement).disabled).toBe(true);

  fireEvent.click($().getByRole("button", { name: "Find pages" }));
  fireEvent.click(await $().findByRole("checkbox", { name: "Add /plans" }));
  fireEvent.click($().getByRole("button", { name: "Add 1 page" }));
  expect(await $().findByRole("listitem", { name: "/plans (Pricing)" })).toBeTruthy();

  fireEvent.click($().getByRole("button", { name: "Delete /pricing" }));
  await waitFor(() => expect(f.calls.some((c) => c.method === "DELETE" && c.path === "/api/pages/p2")).toBe(true));
  // A text query, not a role query: role names are slow to compute on a page this size.
  await waitFor(() => expect($().queryByText("/pricing")).toBeNull());
});
