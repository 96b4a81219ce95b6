// Every request discovery makes goes through here. Each hop, redirects included, is checked by the
// SSRF guard (http(s) only, no credentials, every address the name resolves to public) and then
// *pinned*: the socket connects to the addresses that were checked, so a DNS answer that changes
// between the check and the connection cannot point inside. Each request has a time limit and a
// size limit (on the bytes as decoded, so a gzip bomb stops at the limit too). ALLOW_PRIVATE_TARGETS
// lifts the address rules, as for captures.

import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { HttpError } from "#server/http/errors";
import { checkHost, parseTargetUrl, type HostVerdict } from "#server/modules/capture/public";

export type FailureKind = "blocked" | "unreachable" | "timeout" | "too-large" | "redirects" | "hop-refused";

/** Why a request brought nothing back; `message` is for the user, `detail` for the log. */
export class FetchFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

export interface FetchLimits {
  timeoutMs: number;
  /** Bytes kept after content decoding. */
  maxBytes: number;
  /** Past maxBytes: keep what came (robots.txt, HTML) or fail (a sitemap cut short is not XML). */
  overflow: "truncate" | "fail";
  maxRedirects: number;
  /** Asked before each redirect is followed; false stops there (another origin, a disallowed path). */
  follow?: (next: URL) => boolean;
  accept?: string;
}

export interface Fetched {
  /** Where the answer finally came from, after redirects. */
  url: URL;
  status: number;
  contentType: string;
  body: Uint8Array;
  truncated: boolean;
}

export interface FetcherDeps {
  allowPrivate: boolean;
  userAgent: string;
  /** The host check (tests hand in one that pins a made-up public name to loopback). */
  checkHost?: (host: string) => Promise<HostVerdict>;
  /** Whole-discovery cancellation: an aborted signal fails every request still going. */
  signal?: AbortSignal;
}

export type Fetcher = (url: URL, limits: FetchLimits) => Promise<Fetched>;

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/** A `lookup` that answers only with the addresses the guard approved. */
function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const list = addresses.map((address) => ({ address, family: isIP(address) }));
  return ((_hostname: string, options: unknown, callback?: (...args: unknown[]) => void) => {
    const cb = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
    if (typeof options === "object" && options !== null && (options as { all?: boolean }).all) cb(null, list);
    else cb(null, list[0]!.address, list[0]!.family);
  }) as unknown as LookupFunction;
}

/** Plain words for a socket error, with the host, for the user. */
function unreachable(url: URL, err: unknown): FetchFailure {
  const code = err && typeof err === "object" && "code" in err ? String(err.code) : "";
  const words: Record<string, string> = {
    ECONNREFUSED: "the connection was refused",
    ECONNRESET: "the connection was reset",
    ENOTFOUND: "its name does not resolve",
    EAI_AGAIN: "its name could not be resolved",
    EHOSTUNREACH: "the host is unreachable",
    ENETUNREACH: "the network is unreachable",
    CERT_HAS_EXPIRED: "its TLS certificate has expired",
    DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
    ERR_TLS_CERT_ALTNAME_INVALID: "its TLS certificate is for another name",
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its TLS certificate cannot be verified",
  };
  const why = words[code] ?? (code ? `network error ${code}` : "the connection failed");
  return new FetchFailure("unreachable", `Could not reach ${url.host}: ${why}`, err instanceof Error ? err.message : String(err));
}

function decoded(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") return res.pipe(createGunzip());
  if (encoding === "deflate") return res.pipe(createInflate());
  if (encoding === "br") return res.pipe(createBrotliDecompress());
  return res;
}

interface OneAnswer {
  status: number;
  location: string | null;
  contentType: string;
  body: Uint8Array;
  truncated: boolean;
}

export function createFetcher(deps: FetcherDeps): Fetcher {
  // One verdict per host for the whole discovery: one lookup each, and no two answers to compare.
  const verdicts = new Map<string, Promise<HostVerdict>>();
  const check = deps.checkHost ?? ((host: string) => checkHost(host));
  const verdictFor = (host: string) => {
    const key = host.toLowerCase();
    let v = verdicts.get(key);
    if (!v) verdicts.set(key, (v = check(key)));
    return v;
  };

  /** The URL as a hop we may take, with the addresses to connect to (none: resolve as usual). */
  async function vet(url: URL): Promise<readonly string[] | null> {
    try {
      parseTargetUrl(url.href, { allowPrivate: deps.allowPrivate });
    } catch (e) {
      throw new FetchFailure("blocked", e instanceof HttpError ? e.message : "Please enter a valid URL");
    }
    if (deps.allowPrivate) return null;
    const verdict = await verdictFor(hostOf(url));
    if (!verdict.ok) throw new FetchFailure("blocked", verdict.reason, verdict.detail);
    return verdict.addresses;
  }

  function once(url: URL, addresses: readonly string[] | null, limits: FetchLimits): Promise<OneAnswer> {
    const client = url.protocol === "https:" ? https : http;
    return new Promise<OneAnswer>((resolve, reject) => {
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        deps.signal?.removeEventListener("abort", onAbort);
        fn();
      };
      const req = client.request(url, {
        method: "GET",
        headers: {
          "user-agent": deps.userAgent,
          accept: limits.accept ?? "*/*",
          "accept-encoding": "gzip, deflate, br",
        },
        ...(addresses ? { lookup: pinnedLookup(addresses) } : {}),
      });
      // The whole exchange, connection to last byte, not just a quiet socket.
      const timer = setTimeout(() => {
        const ms = limits.timeoutMs;
        const failure = new FetchFailure(
          "timeout",
          `${url.host} did not answer within ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}`,
        );
        finish(() => reject(failure));
        req.destroy(failure);
      }, limits.timeoutMs);
      const onAbort = () => {
        const failure = new FetchFailure("timeout", "Discovery ran out of time");
        finish(() => reject(failure));
        req.destroy(failure);
      };
      if (deps.signal?.aborted) return onAbort();
      deps.signal?.addEventListener("abort", onAbort, { once: true });

      req.on("error", (e) => finish(() => reject(e instanceof FetchFailure ? e : unreachable(url, e))));
      req.on("response", (res) => {
        const status = res.statusCode ?? 0;
        const location = typeof res.headers.location === "string" ? res.headers.location : null;
        const contentType = String(res.headers["content-type"] ?? "");
        if (status >= 300 && status < 400 && location) {
          res.resume();
          req.destroy();
          return finish(() => resolve({ status, location, contentType, body: new Uint8Array(), truncated: false }));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const stream = decoded(res);
        const done = (truncated: boolean) => {
          const body = new Uint8Array(Buffer.concat(chunks));
          finish(() => resolve({ status, location, contentType, body, truncated }));
        };
        stream.on("data", (chunk: Buffer) => {
          if (settled) return;
          const room = limits.maxBytes - size;
          if (chunk.length > room) {
            if (limits.overflow === "fail") {
              const kib = Math.round(limits.maxBytes / 1024);
              finish(() => reject(new FetchFailure("too-large", `${url.pathname} is larger than ${kib} KiB`)));
            } else {
              chunks.push(chunk.subarray(0, room));
              size += room;
              done(true);
            }
            req.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        const brokeOff = () => finish(() => reject(new FetchFailure("unreachable", `${url.host} broke off its answer`)));
        res.on("aborted", brokeOff);
        res.on("error", brokeOff);
        stream.on("end", () => done(false));
        stream.on("error", (e) =>
          finish(() => reject(new FetchFailure("unreachable", `${url.host} sent an answer that could not be decoded`, e.message))),
        );
      });
      req.end();
    });
  }

  return async (start, limits) => {
    let url = new URL(start.href);
    for (let hop = 0; ; hop++) {
      const addresses = await vet(url);
      const answer = await once(url, addresses, limits);
      if (answer.location === null) {
        return { url, status: answer.status, contentType: answer.contentType, body: answer.body, truncated: answer.truncated };
      }
      if (hop >= limits.maxRedirects) throw new FetchFailure("redirects", `${start.host} redirects more than ${limits.maxRedirects} times`);
      let next: URL;
      try {
        next = new URL(answer.location, url);
      } catch {
        throw new FetchFailure("unreachable", `${url.host} redirects to an address that is not a URL`);
      }
      next.hash = "";
      if (limits.follow && !limits.follow(next)) {
        throw new FetchFailure("hop-refused", `${url.pathname} redirects to ${next.href}, which discovery does not follow`);
      }
      url = next;
    }
  };
}
