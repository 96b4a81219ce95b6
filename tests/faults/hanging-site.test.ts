// One site never finishes loading: the run must not wait for it past the capture limits. The
// limits come from the environment, as an operator would set them. They bound the good sites too:
// the navigation limit is short next to its default (30 s) yet far above what a fixture page needs
// on a busy machine (3 s is not enough there: a good page fails for want of CPU), and the total
// limit only stops a stuck capture.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";
import { SERVER_START_MS, startServer, type RunningServer } from "#tests/support/server";
import { call, comparisonWith, settled, signup } from "./support";

const NAV_MS = 10_000;
const TOTAL_MS = 90_000;

let sites: FixtureServer;
let server: RunningServer;

beforeAll(async () => {
  sites = startFixtureServer();
  server = await startServer({
    env: { ALLOW_PRIVATE_TARGETS: "1", CAPTURE_NAV_TIMEOUT_MS: String(NAV_MS), CAPTURE_TOTAL_TIMEOUT_MS: String(TOTAL_MS) },
  });
}, SERVER_START_MS + 10_000);

afterAll(async () => {
  await server?.stop();
  await sites?.close();
});

test(
  "a hanging site fails with a timeout reason and the other two are compared",
  async () => {
    const user = await signup(server.url);
    const id = await comparisonWith(server.url, user.token, "One never loads", [
      [sites.url("/alpha/"), "Orbit"],
      [sites.url("/_special/never"), "Limbo"],
      [sites.url("/beta/"), "Ember"],
    ]);
    expect((await call(server.url, "POST", `/api/comparisons/${id}/start`, { token: user.token })).status).toBe(202);
    // Six pages at two at a time, each bounded by the total limit, plus scoring: far inside this.
    const done = await settled(server.url, user.token, id, 3 * TOTAL_MS + 30_000);
    expect(done).toMatchObject({ status: "completed", error: null });
    expect(sites.hits("/_special/never")).toBe(2); // desktop and mobile, once each

    const targets = (await call(server.url, "GET", `/api/comparisons/${id}/targets`, { token: user.token })).json as {
      label: string;
      status: string;
      error: string | null;
    }[];
    expect(targets.map((t) => [t.label, t.status])).toEqual([
      ["Orbit", "completed"],
      ["Limbo", "failed"],
      ["Ember", "completed"],
    ]);
    expect(targets[1]!.error).toBe(`The page did not finish loading within ${NAV_MS / 1000} s`);

    const snapshots = (await call(server.url, "GET", `/api/comparisons/${id}/snapshots`, { token: user.token })).json as {
      targetId: string;
    }[];
    expect(snapshots.length).toBe(4);
    const diffs = (await call(server.url, "GET", `/api/comparisons/${id}/diffs`, { token: user.token })).json as unknown[];
    expect(diffs.length).toBe(2);

    const feed = await call(server.url, "GET", "/api/activity", { token: user.token });
    expect(JSON.stringify(feed.json)).toContain("2 of 3 websites captured");
  },
  3 * TOTAL_MS + 60_000,
); // past the wait for the run above, so that wait fails first, with its reason
