import "#tests/support/dom";
import { afterEach, expect, test } from "bun:test";
const { cleanup } = await import("@testing-library/react");
const { PageProblemsNote } = await import("./components/results/page-problems-note");
const { $, renderUi } = await import("./test-utils");
const { extraction } = await import("./test-fixtures");

afterEach(cleanup);

test("lists the failed requests and console errors of a snapshot", () => {
  const ex = extraction({
    network: { failed: [{ url: "https://fonts.gstatic.com/s/lato.woff2", type: "font", reason: "ERR_NAME_NOT_RESOLVED" }], failedCount: 3 },
    console: [{ level: "exception", text: "TypeError: $ is not a function" }],
  });
  renderUi(<PageProblemsNote ex={ex} />);
  expect($().getByTestId("page-problems").textContent).toContain("3 requests failed · 1 console error");
  expect($().getByText("font · ERR_NAME_NOT_RESOLVED · https://fonts.gstatic.com/s/lato.woff2")).toBeTruthy();
  expect($().getByText("uncaught: TypeError: $ is not a function")).toBeTruthy();
});

test("says nothing when nothing failed, or for a capture without failure records", () => {
  renderUi(<PageProblemsNote ex={extraction({ network: { failed: [], failedCount: 0 }, console: [] })} />);
  expect($().queryByTestId("page-problems")).toBeNull();
  renderUi(<PageProblemsNote ex={extraction()} />);
  expect($().queryByTestId("page-problems")).toBeNull();
});
