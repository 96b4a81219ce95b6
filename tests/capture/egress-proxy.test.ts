// The egress proxy at the socket level: CONNECT tunnels (https, wss) and plain-http forwarding.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import net from "node:net";
import { BLOCKED_HEADER, startEgressProxy, type EgressProxy } from "#server/modules/capture/browser/egress-proxy";
import { SSRF_MESSAGES, type HostVerdict } from "#server/modules/capture/browser/ssrf";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";

let server: FixtureServer;
let proxy: EgressProxy;

// "public.test" stands for a public site and is served by the fixture server; all else is refused.
const guard = async (host: string): Promise<HostVerdict> =>
  host === "public.test" ? { ok: true, addresses: ["127.0.0.1"] } : { ok: false, reason: SSRF_MESSAGES.private };

/** Writes `request` to the proxy and collects everything it answers until it closes (or `until` matches). */
function exchange(request: string | ((socket: net.Socket, received: () => string) => void), until?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const port = Number(new URL(proxy.server).port);
    const socket = net.connect({ host: "127.0.0.1", port });
    let data = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(data);
    }, 5000);
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
      if (until?.test(data)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(data);
      }
    });
    socket.on("end", () => {
      clearTimeout(timer);
      resolve(data);
    });
    socket.on("error", reject);
    socket.on("connect", () => (typeof request === "string" ? socket.write(request) : request(socket, () => data)));
  });
}

beforeAll(async () => {
  server = startFixtureServer();
  proxy = await startEgressProxy(guard);
});

afterAll(async () => {
  await proxy.close();
  await server.close();
});

describe("egress proxy", () => {
  test("forwards plain http for an allowed host to the address it checked", async () => {
    const answer = await exchange(
      `GET http://public.test:${server.port}/_special/origin HTTP/1.1\r\nHost: public.test:${server.port}\r\nProxy-Connection: keep-alive\r\n\r\n`,
    );
    expect(answer).toStartWith("HTTP/1.1 200");
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(answer).toContain(server.origin);
  });

  test("refuses plain http to a private host with a marked 403 and never connects", async () => {
    const before = server.hits("/_special/secret");
    const answer = await exchange(`GET ${server.url("/_special/secret")} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    expect(answer).toStartWith("HTTP/1.1 403");
    expect(answer.toLowerCase()).toContain(`${BLOCKED_HEADER}: 1`);
    expect(server.hits("/_special/secret")).toBe(before);
  });

  test("tunnels CONNECT for an allowed host and refuses it for a private one", async () => {
    const tunnelled = await exchange((socket, received) => {
      socket.write(`CONNECT public.test:${server.port} HTTP/1.1\r\nHost: public.test:${server.port}\r\n\r\n`);
      const wait = setInterval(() => {
        if (!received().includes("\r\n\r\n")) return;
        clearInterval(wait);
        // Inside the tunnel: a plain request straight to the fixture server.
        socket.write(`GET /_special/origin HTTP/1.1\r\nHost: public.test\r\nConnection: close\r\n\r\n`);
      }, 10);
    });
    expect(tunnelled).toStartWith("HTTP/1.1 200 Connection Established");
    expect(tunnelled).toContain(server.origin);

    const before = server.hits("/_special/secret");
    const refused = await exchange(`CONNECT 127.0.0.1:${server.port} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    expect(refused).toStartWith("HTTP/1.1 403");
    expect(refused).toContain(SSRF_MESSAGES.private);
    expect(server.hits("/_special/secret")).toBe(before);
    expect(proxy.blocked.some((b) => b.host === "127.0.0.1")).toBe(true);
  });

  test("does not forward a second request smuggled onto the same connection", async () => {
    const before = server.hits("/_special/secret");
    await exchange(
      `GET http://public.test:${server.port}/_special/origin HTTP/1.1\r\nHost: public.test\r\n\r\n` +
        `GET /_special/secret HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    );
    expect(server.hits("/_special/secret")).toBe(before);
  });

  test("answers nonsense with 400, not a crash", async () => {
    expect(await exchange("CONNECT nonsense HTTP/1.1\r\n\r\n")).toStartWith("HTTP/1.1 400");
    expect(await exchange("GET /relative HTTP/1.1\r\nHost: x\r\n\r\n")).toStartWith("HTTP/1.1 400");
    expect(await exchange("GET ftp://public.test/ HTTP/1.1\r\n\r\n")).toStartWith("HTTP/1.1 400");
  });
});
