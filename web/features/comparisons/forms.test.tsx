import "#tests/support/dom";
import { afterEach, expect, mock, test } from "bun:test";
const { fireEvent, waitFor } = await import("@testing-library/react");
const { AddTargetForm } = await import("./components/add-target-form");
const { CreateComparisonForm } = await import("./components/create-comparison-form");
const { $, comparison, mockFetch, renderUi } = await import("./test-utils");

let restore = () => {};
afterEach(() => restore());

const submit = (name: RegExp) => fireEvent.click($().getByRole("button", { name }));

test("create form shows the spec's validation messages and sends nothing", async () => {
  const f = mockFetch({});
  restore = f.restore;
  renderUi(<CreateComparisonForm onCreated={() => {}} />);
  submit(/create comparison/i);
  expect(await $().findByText("Comparison name is required")).toBeTruthy();
  expect($().getByLabelText("Comparison Name").getAttribute("aria-invalid")).toBe("true");

  fireEvent.change($().getByLabelText("Comparison Name"), { target: { value: "n".repeat(101) } });
  fireEvent.change($().getByLabelText(/Description/), { target: { value: "d".repeat(501) } });
  submit(/create comparison/i);
  expect(await $().findByText("Name must be under 100 characters")).toBeTruthy();
  expect($().getByText("Description must be under 500 characters")).toBeTruthy();
  expect(f.calls).toHaveLength(0);
});

test("a valid comparison is posted, toasted and handed back", async () => {
  const created = comparison({ id: "new1", name: "Pricing pages" });
  const f = mockFetch({ "POST /api/comparisons": { status: 201, json: created } });
  restore = f.restore;
  const onCreated = mock(() => {});
  renderUi(<CreateComparisonForm onCreated={onCreated} />);
  fireEvent.change($().getByLabelText("Comparison Name"), { target: { value: "  Pricing pages " } });
  submit(/create comparison/i);
  await waitFor(() => expect(onCreated).toHaveBeenCalledWith(created));
  expect(f.calls[0]).toEqual({ method: "POST", path: "/api/comparisons", body: { name: "Pricing pages", description: null } });
  expect(await $().findByText("Comparison Created")).toBeTruthy();
  expect(($().getByLabelText("Comparison Name") as HTMLInputElement).value).toBe("");
});

test("a refused create shows the server's message, else the fallback", async () => {
  const f = mockFetch({ "POST /api/comparisons": { status: 429, json: { error: "Slow down a little" } } });
  restore = f.restore;
  renderUi(<CreateComparisonForm onCreated={() => {}} />);
  fireEvent.change($().getByLabelText("Comparison Name"), { target: { value: "x" } });
  submit(/create comparison/i);
  expect(await $().findByText("Creation Failed")).toBeTruthy();
  expect($().getByText("Slow down a little")).toBeTruthy();
  f.restore();

  const g = mockFetch({ "POST /api/comparisons": { status: 500, json: {} } });
  restore = g.restore;
  submit(/create comparison/i);
  expect(await $().findByText("Unable to create comparison. Please try again.")).toBeTruthy();
});

test("add-target form validates url and label before calling onAdd", async () => {
  const onAdd = mock(async () => true);
  renderUi(<AddTargetForm onAdd={onAdd} />);
  fireEvent.change($().getByLabelText("Website URL"), { target: { value: "not a url" } });
  submit(/add website/i);
  expect(await $().findByText("Please enter a valid URL")).toBeTruthy();
  expect($().getByText("Label is required")).toBeTruthy();

  fireEvent.change($().getByLabelText("Website URL"), { target: { value: "acme.com" } });
  fireEvent.change($().getByLabelText("Display Label"), { target: { value: "L".repeat(51) } });
  submit(/add website/i);
  expect(await $().findByText("Label must be under 50 characters")).toBeTruthy();
  expect(onAdd).not.toHaveBeenCalled();

  fireEvent.change($().getByLabelText("Display Label"), { target: { value: "Acme" } });
  submit(/add website/i);
  await waitFor(() => expect(onAdd).toHaveBeenCalledWith({ url: "https://acme.com/", label: "Acme" }));
  await waitFor(() => expect(($().getByLabelText("Website URL") as HTMLInputElement).value).toBe(""));
});
