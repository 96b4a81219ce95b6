import "#tests/support/dom";
import { expect, test } from "bun:test";
const { act, render } = await import("@testing-library/react");
const { createMemoryRouter, RouterProvider } = await import("react-router");
const { useSearchUpdate } = await import("./use-search-update");

test("a change reported twice before the next render navigates once; a change to the same value not at all", async () => {
  let update: (c: Record<string, string>) => void = () => {};
  function Page() {
    const s = useSearchUpdate();
    update = s.update;
    return <p>{s.params.toString()}</p>;
  }
  let loads = 0;
  const router = createMemoryRouter([{ path: "/r", loader: () => ++loads, Component: Page }], {
    initialEntries: ["/r?a=1"],
    hydrationData: { loaderData: { "0": 0 } },
  });
  const navigations: string[] = [];
  router.subscribe((s) => {
    if (s.navigation.state === "idle") navigations.push(s.location.search);
  });
  const r = render(<RouterProvider router={router} />);
  await act(async () => {
    update({ viewport: "mobile" });
    update({ viewport: "mobile" });
  });
  await act(async () => update({ a: "1" }));
  expect(router.state.location.search).toBe("?a=1&viewport=mobile");
  expect(navigations).toEqual(["?a=1&viewport=mobile"]);
  r.unmount();
});
