// The dashboard's composition of the live store's system control with Mission Control's system
// card: Launch/Stop toasts and the badge, as the dashboard route wires them.
import "#tests/support/dom";
import { afterEach, describe, expect, test } from "bun:test";

const { render, screen, fireEvent, waitFor } = await import("@testing-library/react");
const { Theme } = await import("@radix-ui/themes");
const { createMemoryRouter, RouterProvider } = await import("react-router");
const { Toaster, useToasts } = await import("#web/components/ui/toast");
const { SystemCard } = await import("#web/features/mission-control/system-card");
const { useSystemControl } = await import("#web/features/live/use-system-control");
const { useLive } = await import("#web/features/live/store");

function ui(node: React.ReactNode) {
  useToasts.setState({ current: null });
  const router = createMemoryRouter(
    [
      {
        path: "*",
        element: (
          <Theme>
            {node}
            <Toaster />
          </Theme>
        ),
      },
    ],
    { initialEntries: ["/dashboard"] },
  );
  return render(<RouterProvider router={router} />);
}

const original = globalThis.fetch;
afterEach(async () => {
  // Let the re-reads a click started (activity refresh) finish while the DOM still exists.
  await Bun.sleep(30);
  globalThis.fetch = original;
});

describe("Dashboard system control", () => {
  function Control() {
    const c = useSystemControl();
    const active = useLive((s) => s.systemActive);
    return <SystemCard active={active} pending={c.pending} isAdmin onLaunch={c.launch} onStop={c.stop} />;
  }

  test("Launch: a successful start sets Active and toasts 'System Started'", async () => {
    useLive.setState({ systemActive: false });
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      const path = String(input);
      if (path.endsWith("/api/system/start")) return Response.json({ isActive: true, running: true, since: null });
      return Response.json([]);
    }) as typeof fetch;
    ui(<Control />);
    expect(screen.getByTestId("system-badge").textContent).toBe("Offline");
    fireEvent.click(screen.getByRole("button", { name: /Launch System/ }));
    await waitFor(() => expect(screen.getByTestId("system-badge").textContent).toBe("Active"));
    expect(screen.getByText("System Started")).toBeTruthy();
    expect(screen.getByText("AI Design Intelligence System activated")).toBeTruthy();
  });

  test("Launch refused (403): the Error toast carries the server's message and the badge stays Offline", async () => {
    useLive.setState({ systemActive: false });
    globalThis.fetch = (async () =>
      Response.json({ error: "Only admins can start, stop or restart the agent system" }, { status: 403 })) as unknown as typeof fetch;
    ui(<Control />);
    fireEvent.click(screen.getByRole("button", { name: /Launch System/ }));
    await waitFor(() => expect(screen.getByText("Error")).toBeTruthy());
    expect(screen.getByText("Only admins can start, stop or restart the agent system")).toBeTruthy();
    expect(screen.getByTestId("system-badge").textContent).toBe("Offline");
  });

  test("Stop failure without a server message falls back to 'Failed to stop system'", async () => {
    useLive.setState({ systemActive: true });
    globalThis.fetch = (async () => new Response("", { status: 502 })) as unknown as typeof fetch;
    ui(<Control />);
    fireEvent.click(screen.getByRole("button", { name: /Stop System/ }));
    await waitFor(() => expect(screen.getByText("Failed to stop system")).toBeTruthy());
    expect(screen.getByTestId("system-badge").textContent).toBe("Active");
  });
});
