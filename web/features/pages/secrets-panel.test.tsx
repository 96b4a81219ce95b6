import "#tests/support/dom";
import { afterEach, expect, test } from "bun:test";
const { cleanup, fireEvent, waitFor } = await import("@testing-library/react");
const { SecretsPanel } = await import("./components/secrets-panel");
const { $, mockFetch, renderUi } = await import("#tests/support/ui");

let restore = () => {};
afterEach(() => {
  restore();
  cleanup();
});

test("secrets: names and dates listed, a value set through a password field, cleared once sent and never shown; delete", async () => {
  let list = [{ name: "username", updatedAt: "2026-11-27T10:00:00.000Z" }];
  const f = mockFetch({
    "GET /api/targets/t1/secrets": () => ({ json: list }),
    "PUT /api/targets/t1/secrets/password": () => {
      list = [...list, { name: "password", updatedAt: "2026-11-27T11:00:00.000Z" }];
      return { status: 204 };
    },
    "DELETE /api/targets/t1/secrets/username": () => {
      list = list.filter((s) => s.name !== "username");
      return { status: 204 };
    },
  });
  restore = f.restore;
  renderUi(<SecretsPanel targetId="t1" label="Acme" onClose={() => {}} />);
  expect(await $().findByText("username")).toBeTruthy();

  const value = $().getByLabelText("Value") as HTMLInputElement;
  expect(value.type).toBe("password");
  fireEvent.change($().getByLabelText("Name"), { target: { value: "Bad Name" } });
  fireEvent.change(value, { target: { value: "hunter2-very-secret" } });
  fireEvent.click($().getByRole("button", { name: "Set secret" }));
  expect(await $().findByText(/A name starts with a lowercase letter/)).toBeTruthy();

  fireEvent.change($().getByLabelText("Name"), { target: { value: "password" } });
  fireEvent.click($().getByRole("button", { name: "Set secret" }));
  await waitFor(() => expect($().getByTestId("secrets-list").textContent).toContain("password"), { timeout: 5000 });
  expect(f.calls.find((c) => c.method === "PUT")?.body).toEqual({ value: "hunter2-very-secret" });
  expect(value.value).toBe("");
  expect(document.body.innerHTML).not.toContain("hunter2-very-secret");

  fireEvent.click($().getByRole("button", { name: "Delete secret username" }));
  await waitFor(() => expect(f.calls.filter((c) => c.method === "GET")).toHaveLength(3), { timeout: 5000 });
  await waitFor(() => expect($().getByTestId("secrets-list").textContent).not.toContain("username"), { timeout: 5000 });
});
