import "#tests/support/dom";
import { afterEach, beforeEach, describe, expect, mock, test } from "bun:test";
import type { WorkspaceRole } from "#server/modules/workspaces/model";
const { fireEvent, waitFor, within } = await import("@testing-library/react");
const { useWorkspaceStore, VIEWER_REASON } = await import("#web/lib/workspace");
const { ComparisonDetail } = await import("./components/comparison-detail");
const { CreateComparisonForm } = await import("./components/create-comparison-form");
const { $, comparison, mockFetch, renderUi, target } = await import("./test-utils");

const two = [target("t1", "Alpha"), target("t2", "Beta")];
const as = (role: WorkspaceRole) => useWorkspaceStore.setState({ current: { id: "w-team", name: "Growth team", role, personal: false } });
const button = (name: RegExp | string) => $().getByRole("button", { name }) as HTMLButtonElement;

let restore = () => {};
beforeEach(() => useWorkspaceStore.setState({ current: null, generation: 0 }));
afterEach(() => restore());

describe("a viewer reads; the write actions are off and say why", () => {
  test("Start, Delete, Add Website and removing a site are disabled, with the reason in words and on the control", () => {
    as("viewer");
    renderUi(
      <ComparisonDetail
        id="c1"
        initial={{ comparison: comparison({ targetCount: 2 }), targets: two }}
        onChange={() => {}}
        onDeleted={() => {}}
      />,
    );
    expect(button(/Start Analysis/).disabled).toBe(true);
    expect(button("Delete Checkout showdown").disabled).toBe(true);
    expect(button(/Add Website/).disabled).toBe(true);
    expect(button("Remove Alpha").disabled).toBe(true);
    // The capture settings read as text: no select or switch to try.
    expect($().queryByRole("combobox", { name: "Cookie banners" })).toBe(null);
    expect($().getByText("Reject (least tracking)")).toBeTruthy();
    expect($().queryByRole("switch", { name: "Dark captures" })).toBe(null);
    expect($().getByText(/Dark captures:/).textContent).toBe("Dark captures: off");
    // The form's fields are off together (a disabled fieldset).
    expect($().getByRole("textbox", { name: "Website URL" }).closest("fieldset")?.disabled).toBe(true);
    // The header says it once in words; each control's wrapper carries it for hover and focus.
    expect($().getAllByTestId("disabled-reason")[0]!.textContent).toBe(VIEWER_REASON);
    const wrappers = $().getAllByRole("group", { name: VIEWER_REASON });
    expect(wrappers.length).toBeGreaterThanOrEqual(4);
    expect(within(wrappers[0]!).getByRole("button", { name: /Start Analysis/ })).toBeTruthy();
    expect(wrappers[0]!.tabIndex).toBe(0);
  });

  test("New comparison is off for a viewer", () => {
    as("viewer");
    renderUi(<CreateComparisonForm onCreated={() => {}} />);
    expect(button(/Create Comparison/).disabled).toBe(true);
    expect($().getByTestId("disabled-reason").textContent).toBe(VIEWER_REASON);
  });

  test("an editor may start and delete: Delete asks first, then the comparison goes", async () => {
    as("editor");
    const f = mockFetch({ "DELETE /api/comparisons/c1": { status: 204 } });
    restore = f.restore;
    const onDeleted = mock((_id: string) => {});
    renderUi(
      <ComparisonDetail
        id="c1"
        initial={{ comparison: comparison({ targetCount: 2 }), targets: two }}
        onChange={() => {}}
        onDeleted={onDeleted}
      />,
    );
    expect(button(/Start Analysis/).disabled).toBe(false);
    expect($().queryByTestId("disabled-reason")).toBe(null);
    fireEvent.click(button("Delete Checkout showdown"));
    const confirm = await $().findByRole("alertdialog", { name: "Delete Checkout showdown?" });
    fireEvent.click(within(confirm).getByRole("button", { name: "Delete comparison" }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledWith("c1"));
    expect(f.calls).toEqual([{ method: "DELETE", path: "/api/comparisons/c1", body: undefined, workspace: "w-team" }]);
  });

  test("no workspace known yet: nothing is locked (the server still decides)", () => {
    renderUi(<ComparisonDetail id="c1" initial={{ comparison: comparison({ targetCount: 2 }), targets: two }} onChange={() => {}} />);
    expect(button(/Start Analysis/).disabled).toBe(false);
    // Without onDeleted there is no Delete button.
    expect($().queryByRole("button", { name: "Delete Checkout showdown" })).toBe(null);
  });
});
