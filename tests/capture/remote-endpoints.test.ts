// What the pool knows of its browser servers (remote-endpoints.ts), with a stand-in probe: which
// one a new worker goes to, the pause before each new look, and what the log says, once.
import { describe, expect, test } from "bun:test";
import { connectFailure } from "#server/modules/capture/browser/remote-browser";
import { endpointLabel, RemoteEndpoints } from "#server/modules/capture/browser/remote-endpoints";
import { waitFor } from "#tests/support/wait";

const A = "ws://browser-a:3000/s3cret-a";
const B = "wss://browser-b/chromium/playwright?token=s3cret-b";

function endpoints(answers: Record<string, string | null>, opts: { retryMinMs?: number; retryMaxMs?: number } = {}) {
  const log: string[] = [];
  const looks: { endpoint: string; at: number }[] = [];
  let reachable = 0;
  const all = new RemoteEndpoints([A, B], {
    log: (m) => log.push(m),
    onReachable: () => reachable++,
    probe: async (endpoint) => {
      looks.push({ endpoint, at: Date.now() });
      return answers[endpoint] ?? null;
    },
    ...opts,
  });
  return { all, log, looks, reachableCalls: () => reachable };
}

describe("remote endpoints", () => {
  test("named by scheme, host and port only", () => {
    expect(endpointLabel(A)).toBe("ws://browser-a:3000");
    expect(endpointLabel(B)).toBe("wss://browser-b");
    expect(connectFailure(new Error(`browserType.connect: WebSocket error: ${A} 400 Bad Request\nCall log: ${A}`), A)).toBe(
      "WebSocket error: ws://browser-a:3000 400 Bad Request",
    );
    expect(connectFailure(new Error("_wrapApiCall: WebSocket error: connect ECONNREFUSED 10.0.0.7:3000"), A)).toBe("ECONNREFUSED");
  });

  test("a new worker goes to a server known to answer, the least busy one, never one that is down", async () => {
    const e = endpoints({ [A]: "ECONNREFUSED" });
    const [a, b] = e.all.all;
    // Before the boot look, both may be tried.
    expect(e.all.pick(() => 0)).toBe(a!);
    await e.all.looked;
    expect(e.all.readiness()).toEqual({
      reachable: 1,
      total: 2,
      endpoints: [
        { endpoint: "ws://browser-a:3000", reachable: false, detail: "ECONNREFUSED" },
        { endpoint: "wss://browser-b", reachable: true, detail: null },
      ],
    });
    expect(e.all.pick((x) => (x === b ? 5 : 0))).toBe(b!);
    e.all.failed(b!, "the browser server closed the connection");
    expect(e.all.pick(() => 0)).toBeNull();
    expect(e.all.anyUsable()).toBe(false);
    e.all.close();
  });

  test("down: said once, looked at again with a growing pause, and said again once it answers", async () => {
    const answers: Record<string, string | null> = { [A]: "ECONNREFUSED" };
    const e = endpoints(answers, { retryMinMs: 40, retryMaxMs: 160 });
    await waitFor("five looks at A", () => e.looks.filter((l) => l.endpoint === A).length >= 5, 10_000, 5);
    const at = e.looks.filter((l) => l.endpoint === A).map((l) => l.at);
    const pauses = at.slice(1).map((t, i) => t - at[i]!);
    // 40, 80, 160, 160 ms (timers fire late on a busy machine, never early).
    expect(pauses[0]).toBeGreaterThanOrEqual(38);
    expect(pauses[1]).toBeGreaterThanOrEqual(78);
    expect(pauses[2]).toBeGreaterThanOrEqual(158);
    expect(e.log).toEqual([
      "[capture] browser server ws://browser-a:3000 is not reachable (ECONNREFUSED); its pages go to the other browser servers, and it is tried again in the background",
    ]);
    const before = e.reachableCalls();
    answers[A] = null;
    await waitFor("A to answer", () => e.all.readiness().reachable === 2, 10_000, 5);
    expect(e.log[1]).toBe("[capture] browser server ws://browser-a:3000 is reachable again");
    expect(e.reachableCalls()).toBe(before + 1);
    // Once it answers it is not looked at again on a timer.
    const looks = e.looks.length;
    await Bun.sleep(400);
    expect(e.looks.length).toBe(looks);
    e.all.close();
  });

  test("a server that answers TCP but refuses every connection is said once, not again at every look", async () => {
    const e = endpoints({}, { retryMinMs: 20, retryMaxMs: 40 });
    await e.all.looked;
    const a = e.all.all[0]!;
    for (let i = 0; i < 4; i++) {
      e.all.failed(a, "WebSocket error: ws://browser-a:3000 428 Precondition Required");
      await waitFor("the look that finds its port open", () => a.reachable === true, 10_000, 5);
    }
    expect(e.log).toEqual([
      "[capture] browser server ws://browser-a:3000 is not reachable (WebSocket error: ws://browser-a:3000 428 Precondition Required); its pages go to the other browser servers, and it is tried again in the background",
    ]);
    // A connection that works ends the outage, in the log too.
    e.all.connected(a);
    expect(e.log.at(-1)).toBe("[capture] browser server ws://browser-a:3000 is reachable again");
    e.all.close();
  });
});
