// The authoritative SSRF control at capture time. Request interception alone is not enough:
// Playwright's route handler never sees redirect hops, WebSockets opened by workers or DNS that
// changes between our lookup and the browser's. So each capture's browser context talks to the
// network only through this local HTTP proxy, which resolves every host itself, refuses any
// non-public address and connects to the exact address it checked (no second lookup to rebind).

import { randomBytes, timingSafeEqual } from "node:crypto";
import net from "node:net";
import type { HostVerdict } from "./ssrf";

export const BLOCKED_HEADER = "x-design-intel-blocked";

export interface EgressProxy {
  /** For Playwright's `proxy.server`. */
  server: string;
  /** For Playwright's `proxy.username`/`password`: set when the proxy listens where others can reach it. */
  credentials: { username: string; password: string } | null;
  /** Hosts refused so far, with the reason, in order. */
  blocked: { host: string; reason: string }[];
  close(): Promise<void>;
}

const MAX_HEAD_BYTES = 64 * 1024;
const CONNECT_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 60_000;

function connectAny(addresses: string[], port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    let index = 0;
    const attempt = () => {
      const address = addresses[index++];
      if (address === undefined) return reject(new Error("no address answered"));
      const socket = net.connect({ host: address, port });
      socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error("connect timeout")));
      socket.once("connect", () => {
        socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
        socket.removeAllListeners("error");
        resolve(socket);
      });
      socket.once("error", () => attempt());
    };
    attempt();
  });
}

function refuse(client: net.Socket, status: string, reason: string) {
  const body = `${reason}\n`;
  client.end(
    `HTTP/1.1 ${status}\r\ncontent-type: text/plain; charset=utf-8\r\n${BLOCKED_HEADER}: 1\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** Splits "host:port" / "[v6]:port" as sent in CONNECT. */
function splitAuthority(authority: string): { host: string; port: number } | null {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (!m) return null;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1]!, port } : null;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "upgrade"]);

/** Rewrites a proxy-form request head to origin form with `connection: close`; returns the body length to forward. */
function rewriteRequestHead(method: string, target: URL, version: string, headerLines: string[]) {
  let bodyLength: number | "stream" = 0;
  const kept: string[] = [];
  for (const line of headerLines) {
    const name = line.slice(0, line.indexOf(":")).trim().toLowerCase();
    const value = line.slice(line.indexOf(":") + 1).trim();
    if (name === "content-length") bodyLength = Number(value) || 0;
    if (name === "transfer-encoding") bodyLength = "stream";
    if (!HOP_BY_HOP.has(name)) kept.push(line);
  }
  const head = `${method} ${target.pathname}${target.search} ${version}\r\n${kept.join("\r\n")}\r\nconnection: close\r\n\r\n`;
  return { head, bodyLength };
}

/** Forces `connection: close` on the response so the browser never reuses this socket for another host. */
function closeResponseHead(head: string): string {
  const [statusLine, ...lines] = head.split("\r\n");
  const kept = lines.filter((l) => {
    const name = l.slice(0, l.indexOf(":")).trim().toLowerCase();
    return name !== "connection" && name !== "keep-alive";
  });
  return `${statusLine}\r\n${kept.join("\r\n")}\r\nconnection: close\r\n\r\n`;
}

/**
 * Where the proxy listens. By default on loopback for a browser on this machine; a remote browser
 * needs an address its host can reach (`listen`), named to the browser as `advertise`. Anything on
 * that network could then reach the proxy too, so it then asks for a password made for this proxy
 * alone, which only the capture's own browser context is given.
 */
export interface EgressListen {
  listen: string;
  advertise: string;
}

const LOOPBACK: EgressListen = { listen: "127.0.0.1", advertise: "127.0.0.1" };

function askForCredentials(client: net.Socket) {
  client.end(
    'HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="design-intel capture"\r\n' +
      "content-length: 0\r\nconnection: close\r\n\r\n",
  );
}

/** True when the head carries exactly the expected `proxy-authorization`. */
function authorised(headerLines: string[], expected: Buffer): boolean {
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (line.slice(0, colon).trim().toLowerCase() !== "proxy-authorization") continue;
    const given = Buffer.from(line.slice(colon + 1).trim());
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
  return false;
}

const hostForUrl = (host: string) => (net.isIPv6(host) ? `[${host}]` : host);

export async function startEgressProxy(
  check: (host: string) => Promise<HostVerdict>,
  where: EgressListen | null = null,
): Promise<EgressProxy> {
  const blocked: EgressProxy["blocked"] = [];
  const credentials = where ? { username: "capture", password: randomBytes(18).toString("base64url") } : null;
  const expected = credentials ? Buffer.from(`Basic ${btoa(`${credentials.username}:${credentials.password}`)}`) : null;
  const { listen, advertise } = where ?? LOOPBACK;
  const sockets = new Set<net.Socket>();

  const verdictFor = async (host: string) => {
    const verdict = await check(host).catch((): HostVerdict => ({ ok: false, reason: "lookup failed" }));
    if (!verdict.ok) blocked.push({ host, reason: verdict.reason });
    return verdict;
  };

  const tunnel = async (client: net.Socket, authority: string, rest: Buffer) => {
    const parts = splitAuthority(authority);
    if (!parts) return refuse(client, "400 Bad Request", "bad CONNECT target");
    const verdict = await verdictFor(parts.host);
    if (!verdict.ok) return refuse(client, "403 Forbidden", verdict.reason);
    const upstream = await connectAny(verdict.addresses, parts.port).catch(() => null);
    if (!upstream) return refuse(client, "502 Bad Gateway", "could not connect");
    sockets.add(upstream);
    upstream.once("close", () => sockets.delete(upstream));
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (rest.length) upstream.write(rest);
    client.pipe(upstream);
    upstream.pipe(client);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  };

  const forward = async (client: net.Socket, method: string, rawTarget: string, version: string, headerLines: string[], rest: Buffer) => {
    let target: URL;
    try {
      target = new URL(rawTarget);
    } catch {
      return refuse(client, "400 Bad Request", "bad request target");
    }
    if (target.protocol !== "http:") return refuse(client, "400 Bad Request", "only http is proxied in the clear");
    const verdict = await verdictFor(target.hostname);
    if (!verdict.ok) return refuse(client, "403 Forbidden", verdict.reason);
    const upstream = await connectAny(verdict.addresses, Number(target.port) || 80).catch(() => null);
    if (!upstream) return refuse(client, "502 Bad Gateway", "could not connect");
    sockets.add(upstream);
    upstream.once("close", () => sockets.delete(upstream));

    const { head, bodyLength } = rewriteRequestHead(method, target, version, headerLines);
    upstream.write(head);
    // Forward exactly this request's body; anything after it would be a second request for a host we never checked.
    let remaining = bodyLength === "stream" ? Infinity : bodyLength;
    const sendBody = (chunk: Buffer) => {
      if (remaining <= 0) return;
      const piece = remaining === Infinity ? chunk : chunk.subarray(0, remaining);
      remaining -= piece.length;
      upstream.write(piece);
    };
    sendBody(rest);
    client.on("data", sendBody);
    client.resume();

    let responseHead: Buffer | null = Buffer.alloc(0);
    upstream.on("data", (chunk: Buffer) => {
      if (responseHead === null) return void client.write(chunk);
      responseHead = Buffer.concat([responseHead, chunk]);
      const end = responseHead.indexOf("\r\n\r\n");
      if (end < 0) {
        if (responseHead.length > MAX_HEAD_BYTES) upstream.destroy();
        return;
      }
      client.write(closeResponseHead(responseHead.subarray(0, end).toString("latin1")));
      client.write(responseHead.subarray(end + 4));
      responseHead = null;
    });
    upstream.on("end", () => client.end());
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    client.on("close", () => upstream.destroy());
  };

  const server = net.createServer((client) => {
    sockets.add(client);
    client.once("close", () => sockets.delete(client));
    client.setTimeout(IDLE_TIMEOUT_MS, () => client.destroy());
    client.on("error", () => client.destroy());
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf("\r\n\r\n");
      if (end < 0) {
        if (buffered.length > MAX_HEAD_BYTES) refuse(client, "431 Request Header Fields Too Large", "head too large");
        return;
      }
      client.off("data", onData);
      // Hold further bytes while the host is checked; pipe() or resume() below lets them flow again.
      client.pause();
      const [requestLine = "", ...headerLines] = buffered.subarray(0, end).toString("latin1").split("\r\n");
      const rest = buffered.subarray(end + 4);
      const [method = "", target = "", version = "HTTP/1.1"] = requestLine.split(" ");
      // Before anything is looked up or connected: a stranger learns nothing from this proxy.
      if (expected && !authorised(headerLines, expected)) return askForCredentials(client);
      const work =
        method.toUpperCase() === "CONNECT"
          ? tunnel(client, target, rest)
          : forward(client, method, target, version, headerLines.filter(Boolean), rest);
      work.catch(() => client.destroy());
    };
    client.on("data", onData);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, listen, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    server: `http://${hostForUrl(advertise)}:${port}`,
    credentials,
    blocked,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
