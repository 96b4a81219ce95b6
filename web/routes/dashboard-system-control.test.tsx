// The dashboard's composition of the live store's system control with Mission Control's system
// card: Launch/Stop toasts and the badge, as the dashboard route wires them.
import "#tests/support/dom";
import { afterEach, describe, expect, test } from "bun:test";

const { screen, fireEvent, waitFor } = await import("@testing-library/react");
const { renderUi } = await import("#tests/support/ui");
const { SystemCard } = await import("#web/features/mission-control/system-card");
const { useSystemControl } = await import("#web/features/live/use-system-control");
const { useLive } = await import("#web/features/live/store");

const ui = (node: React.ReactNode) => renderUi(node, "/dashboard");

const original = globalThis.fetch;
afterEach(async () => {
  // What a click started (the activity re-read, the button's pending state) settles while the DOM
  // still exists: no Launch/Stop spinner left, and every request answered.
  await waitFor(() => {
    expect(document.querySelector(".rt-Spinner")).toBeNull();
    expect(inFlight).toBe(0);
  });
  globalThis.fetch = original;
});

let inFlight = 0;
/** Installs `answer` as fetch, counting the requests not yet answered. */
function stubFetch(answer: (input: RequestInfo | URL) => Promise<Response>) {
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    inFlight++;
    try {
      return await answer(input);
    } finally {
      inFlight--;
    }
  }) as typeof fetch;
}

describe("Dashboard system control", () => {
  function Control() {
    const c = useSystemControl();
    const active = useLive((s) => s.systemActive);
    return <SystemCard active={active} pending={c.pending} isAdmin onLaunch={c.launch} onStop={c.stop} />;
  }

  test("Launch: a successful start sets Active and toasts 'System Started'", async () => {
    useLive.setState({ systemActive: false });
    stubFetch(async (input) => {
      const path = String(input);
      if (path.endsWith("/api/system/start")) return Response.json({ isActive: true, running: true, since: null });
      return Response.json([]);
    });
    ui(<Control />);
    expect(screen.getByTestId("system-badge").textContent).toBe("Offline");
    fireEvent.click(screen.getByRole("button", { name: /Launch System/ }));
    await waitFor(() => expect(screen.getByTestId("system-badge").textContent).toBe("Active"));
    expect(screen.getByText("System Started")).toBeTruthy();
    expect(screen.getByText("AI Design Intelligence System activated")).toBeTruthy();
  });

  test("Launch refused (403): the Error toast carries the server's message and the badge stays Offline", async () => {
    useLive.setState({ systemActive: false });
    stubFetch(async () => Response.json({ error: "Only admins can start, stop or restart the agent system" }, { status: 403 }));
    ui(<Control />);
    fireEvent.click(screen.getByRole("button", { name: /Launch System/ }));
    await waitFor(() => expect(screen.getByText("Error")).toBeTruthy());
    expect(screen.getByText("Only admins can start, stop or restart the agent system")).toBeTruthy();
    expect(screen.getByTestId("system-badge").textContent).toBe("Offline");
  });

  test("Stop failure without a server message falls back to 'Failed to stop system'", async () => {
    useLive.setState({ systemActive: true });
    stubFetch(async () => new Response("", { status: 502 }));
    ui(<Control />);
    fireEvent.click(screen.getByRole("button", { name: /Stop System/ }));
    await waitFor(() => expect(screen.getByText("Failed to stop system")).toBeTruthy());
    expect(screen.getByTestId("system-badge").textContent).toBe("Active");
  });
});
