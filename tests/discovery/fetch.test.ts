// The guarded fetcher on its own: SSRF checks on every hop (with the checked addresses pinned),
// time and size limits (on decoded bytes too), and redirect limits.
import { afterAll, describe, expect, test } from "bun:test";
import { checkHost, type HostVerdict } from "#server/modules/capture/public";
import { createFetcher, FetchFailure, type FetchLimits } from "#server/modules/discovery/fetch";

const hits: string[] = [];
const hosts: string[] = [];
const server: Bun.Server<undefined> = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  fetch(req): Response | Promise<Response> {
    const url = new URL(req.url);
    hits.push(url.pathname);
    hosts.push(req.headers.get("host") ?? "");
    const go = (to: string) => new Response(null, { status: 302, headers: { location: to } });
    switch (url.pathname) {
      case "/ok":
        return new Response("hello", { headers: { "content-type": "text/plain" } });
      case "/big":
        return new Response(new Uint8Array(2 * 1024 * 1024).fill(65));
      case "/bomb":
        return new Response(BOMB, { headers: { "content-encoding": "gzip" } });
      case "/gzipped":
        return new Response(Bun.gzipSync(new TextEncoder().encode("packed text")), { headers: { "content-encoding": "gzip" } });
      case "/hang":
        return new Promise<Response>(() => {});
      case "/dribble":
        return new Response(
          new ReadableStream({
            start(c) {
              c.enqueue(new TextEncoder().encode("first bytes"));
            },
          }),
        );
      case "/loop":
        return go("/loop");
      case "/to-loopback":
        return go(`http://127.0.0.1:${server.port}/secret`);
      case "/to-rebind":
        return go(`http://rebind.example:${server.port}/secret`);
      case "/to-credentials":
        return go(`http://user:pw@public.example:${server.port}/secret`);
      case "/to-ok":
        return go("/ok");
      case "/secret":
        return new Response("internal secret");
      default:
        return new Response("nope", { status: 404 });
    }
  },
});
afterAll(() => server.stop(true));

const PORT = server.port;
/** A made-up public name pinned to loopback (what a real public address would be); everything else is checked for real. */
const fakeCheck = async (host: string): Promise<HostVerdict> => {
  if (host === "public.example") return { ok: true, addresses: ["127.0.0.1"] };
  if (host === "rebind.example") return { ok: false, reason: "That address points to a private or local network, which is not allowed" };
  return checkHost(host);
};
const guarded = (signal?: AbortSignal) =>
  createFetcher({ allowPrivate: false, userAgent: "DesignIntel/1.0", checkHost: fakeCheck, signal });
const open = createFetcher({ allowPrivate: true, userAgent: "DesignIntel/1.0" });
// Compressed once: gzipping 64 MB per request took most of the 2 s limit on a loaded machine.
const BOMB = Bun.gzipSync(new Uint8Array(64 * 1024 * 1024));
const LIMITS: FetchLimits = { timeoutMs: 2000, maxBytes: 1024 * 1024, overflow: "fail", maxRedirects: 5 };
const pub = (path: string) => new URL(`http://public.example:${PORT}${path}`);
const local = (path: string) => new URL(`http://127.0.0.1:${PORT}${path}`);

async function failure(p: Promise<unknown>): Promise<FetchFailure> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(FetchFailure);
  return e as FetchFailure;
}

describe("SSRF guard on every hop", () => {
  test("a checked name is pinned: the socket goes to the approved address, the Host header keeps the name", async () => {
    const r = await guarded()(pub("/ok"), LIMITS);
    expect(r.status).toBe(200);
    expect(new TextDecoder().decode(r.body)).toBe("hello");
    expect(hosts.at(-1)).toBe(`public.example:${PORT}`);
  });

  test("a loopback address is refused before any connection", async () => {
    const before = hits.length;
    const e = await failure(guarded()(local("/ok"), LIMITS));
    expect(e.kind).toBe("blocked");
    expect(e.message).toBe("That address points to a private or local network, which is not allowed");
    expect(hits.length).toBe(before);
  });

  test("a redirect to a private address, to a name that resolves privately, or with credentials is refused; the target is never requested", async () => {
    for (const path of ["/to-loopback", "/to-rebind", "/to-credentials"]) {
      const e = await failure(guarded()(pub(path), LIMITS));
      expect(e.kind).toBe("blocked");
    }
    expect(hits).not.toContain("/secret");
  });

  test("with private targets allowed, loopback is fetched (tests, LAN installs)", async () => {
    const r = await open(local("/to-ok"), LIMITS);
    expect(r.status).toBe(200);
    expect(r.url.pathname).toBe("/ok");
  });
});

describe("redirects", () => {
  test("followed up to the limit, then a failure naming it", async () => {
    const e = await failure(open(local("/loop"), { ...LIMITS, maxRedirects: 3 }));
    expect(e.kind).toBe("redirects");
    expect(e.message).toBe(`127.0.0.1:${PORT} redirects more than 3 times`);
  });

  test("the caller's follow() is asked before each hop; a refused hop is never requested", async () => {
    const asked: string[] = [];
    const okBefore = hits.filter((h) => h === "/ok").length;
    const e = await failure(
      open(local("/to-ok"), {
        ...LIMITS,
        follow: (next) => {
          asked.push(next.pathname);
          return false;
        },
      }),
    );
    expect(e.kind).toBe("hop-refused");
    expect(asked).toEqual(["/ok"]);
    expect(hits.filter((h) => h === "/ok").length).toBe(okBefore);
  });
});

describe("time and size limits", () => {
  test("no answer, or a body that never ends, fails at the time limit", async () => {
    for (const path of ["/hang", "/dribble"]) {
      const started = performance.now();
      const e = await failure(open(local(path), { ...LIMITS, timeoutMs: 300 }));
      expect(e.kind).toBe("timeout");
      expect(e.message).toBe(`127.0.0.1:${PORT} did not answer within 300 ms`);
      expect(performance.now() - started).toBeLessThan(3000);
    }
  });

  test("an aborted discovery fails its requests", async () => {
    const ctl = new AbortController();
    const pending = failure(createFetcher({ allowPrivate: true, userAgent: "x", signal: ctl.signal })(local("/hang"), LIMITS));
    setTimeout(() => ctl.abort(), 50);
    expect((await pending).kind).toBe("timeout");
  });

  test("past the size cap: a failure, or the first bytes when truncating", async () => {
    const e = await failure(open(local("/big"), LIMITS));
    expect(e.kind).toBe("too-large");
    expect(e.message).toBe("/big is larger than 1024 KiB");
    const cut = await open(local("/big"), { ...LIMITS, overflow: "truncate" });
    expect(cut.truncated).toBe(true);
    expect(cut.body.length).toBe(1024 * 1024);
  });

  test("the cap applies to decoded bytes: a Content-Encoding gzip bomb stops at it", async () => {
    const e = await failure(open(local("/bomb"), LIMITS));
    expect(e.kind).toBe("too-large");
    const cut = await open(local("/bomb"), { ...LIMITS, maxBytes: 4096, overflow: "truncate" });
    expect(cut.body.length).toBe(4096);
    const small = await open(local("/gzipped"), LIMITS);
    expect(new TextDecoder().decode(small.body)).toBe("packed text");
  });

  test("a refused connection names the host and why", async () => {
    const gone = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = gone.port;
    gone.stop(true);
    const e = await failure(open(new URL(`http://127.0.0.1:${port}/`), LIMITS));
    expect(e.kind).toBe("unreachable");
    expect(e.message).toBe(`Could not reach 127.0.0.1:${port}: the connection was refused`);
  });
});
