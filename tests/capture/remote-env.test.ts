// BROWSER_WS_ENDPOINTS and the egress proxy's address, as validated at boot (src/env.ts): a bad
// value stops the boot with a line naming what is wrong, never quoting the endpoint (its path or
// query may be what grants access to the browser).
import { describe, expect, test } from "bun:test";
import { browserEgress, EnvError, loadEnv } from "#server/env";

const fails = (vars: Record<string, string>): string => {
  try {
    loadEnv(vars);
  } catch (e) {
    if (e instanceof EnvError) return e.message;
    throw e;
  }
  throw new Error("loadEnv accepted it");
};

describe("BROWSER_WS_ENDPOINTS", () => {
  test("absent: no remote browsers", () => {
    expect(loadEnv({}).BROWSER_WS_ENDPOINTS).toEqual([]);
    expect(loadEnv({ BROWSER_WS_ENDPOINTS: "" }).BROWSER_WS_ENDPOINTS).toEqual([]);
  });

  test("a comma list of ws:// and wss:// endpoints, trimmed", () => {
    const env = loadEnv({ BROWSER_WS_ENDPOINTS: " ws://127.0.0.1:3000/a , wss://localhost:3001/?token=abc" });
    expect(env.BROWSER_WS_ENDPOINTS).toEqual(["ws://127.0.0.1:3000/a", "wss://localhost:3001/?token=abc"]);
  });

  test("a malformed list stops the boot, naming the entry and never quoting it", () => {
    const cases: [string, string][] = [
      ["ws://a:3000,http://b:3000/?token=s3cret", "entry 2 of 2 must be a ws:// or wss:// URL, not http://"],
      ["ws://a:3000,,ws://b:3000", "entry 2 of 3 is empty"],
      ["browser-1:3000", "entry 1 of 1 must be a ws:// or wss:// URL (ws://host:port/path)"],
      ["not a url?token=s3cret", "entry 1 of 1 is not a URL (expected ws://host:port/path)"],
      ["ws://a:3000/x,ws://a:3000/x", "entry 2 of 2 repeats entry 1"],
    ];
    for (const [value, why] of cases) {
      const message = fails({ BROWSER_WS_ENDPOINTS: value, BROWSER_EGRESS_HOST: "10.0.0.5" });
      expect(message).toBe(`Invalid configuration:\n  BROWSER_WS_ENDPOINTS: ${why} (got a value of ${value.length} characters, not shown)`);
      expect(message).not.toContain("s3cret");
      expect(message).not.toContain("browser-1");
    }
  });
});

describe("the egress proxy's address", () => {
  test("a browser server on another machine needs BROWSER_EGRESS_HOST", () => {
    expect(fails({ BROWSER_WS_ENDPOINTS: "ws://127.0.0.1:3000/a,ws://browser-2:3000/b" })).toBe(
      "Invalid configuration:\n  BROWSER_EGRESS_HOST: must be set when BROWSER_WS_ENDPOINTS names a browser server on another machine: " +
        "it is the address that server's browser reaches this worker's egress proxy at (got null)",
    );
    const env = loadEnv({ BROWSER_WS_ENDPOINTS: "ws://browser-2:3000/b", BROWSER_EGRESS_HOST: "worker-1" });
    expect(browserEgress(env)).toEqual({ listen: "0.0.0.0", advertise: "worker-1" });
  });

  test("defaults: loopback for browser servers on this machine; an address listens where it is named", () => {
    expect(browserEgress(loadEnv({ BROWSER_WS_ENDPOINTS: "ws://localhost:3000/a" }))).toEqual({
      listen: "127.0.0.1",
      advertise: "127.0.0.1",
    });
    expect(browserEgress(loadEnv({ BROWSER_EGRESS_HOST: "10.0.0.5" }))).toEqual({ listen: "10.0.0.5", advertise: "10.0.0.5" });
    expect(browserEgress(loadEnv({ BROWSER_EGRESS_HOST: "[fd00::5]" }))).toEqual({ listen: "fd00::5", advertise: "fd00::5" });
    expect(browserEgress(loadEnv({ BROWSER_EGRESS_HOST: "worker-1", BROWSER_EGRESS_LISTEN: "10.0.0.5" }))).toEqual({
      listen: "10.0.0.5",
      advertise: "worker-1",
    });
  });

  test("malformed addresses stop the boot", () => {
    expect(fails({ BROWSER_EGRESS_HOST: "http://worker-1" })).toContain("BROWSER_EGRESS_HOST: must be a host name or an IP address");
    expect(fails({ BROWSER_EGRESS_LISTEN: "worker-1" })).toContain(
      "BROWSER_EGRESS_LISTEN: must be an IP address to listen on (0.0.0.0 for every interface)",
    );
  });
});
