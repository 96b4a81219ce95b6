import "#tests/support/dom";
import { afterEach, describe, expect, mock, test } from "bun:test";
const { fireEvent, waitFor } = await import("@testing-library/react");
const { $, mockFetch, renderUi } = await import("#tests/support/ui");
const { AcceptInvitation } = await import("./components/accept-invitation");

const TOKEN = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
let restore = () => {};
afterEach(() => restore());

describe("the invitation page", () => {
  test("signed out: sign in or sign up, each coming back here", () => {
    renderUi(<AcceptInvitation token={TOKEN} signedInAs={null} onAccepted={() => {}} />, `/invite/${TOKEN}`);
    const back = encodeURIComponent(`/invite/${TOKEN}`);
    expect($().getByRole("link", { name: "Sign in to accept" }).getAttribute("href")).toBe(`/login?next=${back}`);
    expect($().getByRole("link", { name: "Create an account" }).getAttribute("href")).toBe(`/signup?next=${back}`);
    expect($().queryByRole("button", { name: "Accept invitation" })).toBe(null);
  });

  test("signed in: Accept sends the token and hands over the workspace joined", async () => {
    const f = mockFetch({ "POST /api/invitations/accept": { json: { workspace: { id: "w1", name: "Growth team", role: "viewer" } } } });
    restore = f.restore;
    const onAccepted = mock(() => {});
    renderUi(<AcceptInvitation token={TOKEN} signedInAs="ada@example.com" onAccepted={onAccepted} />, `/invite/${TOKEN}`);
    fireEvent.click($().getByRole("button", { name: "Accept invitation" }));
    await waitFor(() => expect(onAccepted).toHaveBeenCalledWith({ id: "w1", name: "Growth team", role: "viewer" }));
    expect(f.calls[0]?.body).toEqual({ token: TOKEN });
    expect($().getByRole("status").textContent).toBe("You joined Growth team as viewer. Taking you there...");
  });

  test("a used, expired or revoked link says which (410)", async () => {
    const f = mockFetch({
      "POST /api/invitations/accept": { status: 410, json: { error: "This invitation has expired; ask for a new one" } },
    });
    restore = f.restore;
    renderUi(<AcceptInvitation token={TOKEN} signedInAs="ada@example.com" onAccepted={() => {}} />, `/invite/${TOKEN}`);
    fireEvent.click($().getByRole("button", { name: "Accept invitation" }));
    expect((await $().findByRole("alert")).textContent).toBe("This invitation has expired; ask for a new one");
  });
});
