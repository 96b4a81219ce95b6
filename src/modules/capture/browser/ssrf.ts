// The SSRF guard. Everything the server makes a browser fetch goes through here twice: once when a
// user adds the URL (checkTargetUrl, a clear 400) and again at capture time for every connection the
// browser opens (checkHost, used by the egress proxy and the request router).

import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { badRequest } from "#server/http/errors";

export const SSRF_MESSAGES = {
  invalid: "Please enter a valid URL",
  scheme: "Only http:// and https:// addresses can be captured",
  credentials: "Addresses with a username or password (user@host) are not allowed",
  oddSpelling: "Write IP addresses in the usual dotted form (like 93.184.216.34)",
  private: "That address points to a private or local network, which is not allowed",
  /**
   * A name that does not resolve and one that resolves privately get this one answer: two answers
   * would let a user map the internal DNS (which names exist inside). The difference goes to the log.
   */
  unreachable: "We can't capture that website: its domain name does not lead to a public address",
} as const;

/** `detail` (what DNS actually said) is for the server log, never for the user. */
export type HostVerdict = { ok: true; addresses: string[] } | { ok: false; reason: string; detail?: string };

export type Resolver = (hostname: string) => Promise<string[]>;

/** All addresses a name resolves to, IPv4 and IPv6, in resolver order. */
export const systemResolver: Resolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => a.address);
};

// Names that resolve to the machine itself or to the local network whatever DNS says.
const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".localdomain", ".home.arpa", ".lan", ".intranet"];

/** True for names that never belong to a public website. */
export function isLocalHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.+$/, "");
  if (h === "localhost" || h === "localhost.localdomain" || h === "ip6-localhost" || h === "ip6-loopback") return true;
  if (LOCAL_SUFFIXES.some((s) => h.endsWith(s))) return true;
  // A single label ("intranet", "router") is completed by the resolver's search domains: local by design.
  return isIP(h) === 0 && !h.includes(".");
}

// ---- IPv4 -------------------------------------------------------------------------------------

/**
 * Reads an IPv4 address the way inet_aton (and so curl, ping and browsers) does: 1 to 4 parts, each
 * decimal, 0x-hex or 0-octal, the last part filling the remaining bytes. "127.1", "2130706433",
 * "0x7f000001" and "0177.0.0.1" all mean 127.0.0.1. Returns the 32-bit value or null.
 */
export function parseLooseIPv4(text: string): number | null {
  const s = text.replace(/\.$/, "");
  if (!/^[0-9a-fx.]+$/i.test(s)) return null;
  const parts = s.split(".");
  if (parts.length < 1 || parts.length > 4) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) n = parseInt(p, 8);
    else if (/^(0|[1-9][0-9]*)$/.test(p)) n = parseInt(p, 10);
    else return null;
    if (!Number.isFinite(n)) return null;
    nums.push(n);
  }
  const last = nums[nums.length - 1]!;
  const head = nums.slice(0, -1);
  if (head.some((n) => n > 255)) return null;
  if (last >= 2 ** (8 * (5 - nums.length))) return null;
  let value = 0;
  head.forEach((n, i) => (value += n * 2 ** (8 * (3 - i))));
  return value + last;
}

export function ipv4ToString(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** "a.b.c.d" exactly as written, no leading zeros: the only spelling we accept from users. */
function isCanonicalIPv4(text: string): boolean {
  return /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(text);
}

// [network, prefix length] of every IPv4 block that is not globally reachable (IANA special-purpose registry).
const V4_BLOCKED: [string, number][] = [
  ["0.0.0.0", 8], // "this network", includes the unspecified 0.0.0.0
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, includes broadcast
];

const V4_BLOCKED_RANGES = V4_BLOCKED.map(([net, bits]) => {
  const base = parseLooseIPv4(net)!;
  const size = 2 ** (32 - bits);
  return { from: base, to: base + size - 1 };
});

function isPublicIPv4Value(value: number): boolean {
  return !V4_BLOCKED_RANGES.some((r) => value >= r.from && value <= r.to);
}

// ---- IPv6 -------------------------------------------------------------------------------------

/** Expands an IPv6 literal (optionally with a trailing dotted IPv4 and a %zone) into 8 hextets. */
export function parseIPv6(text: string): number[] | null {
  let s = text.replace(/^\[|\]$/g, "").toLowerCase();
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (isIP(s) !== 6) return null;
  const lastColon = s.lastIndexOf(":");
  const maybeV4 = s.slice(lastColon + 1);
  if (maybeV4.includes(".")) {
    const v4 = parseLooseIPv4(maybeV4);
    if (v4 === null) return null;
    s = `${s.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const toNums = (part: string | undefined) => (part ? part.split(":").map((h) => parseInt(h, 16)) : []);
  const head = toNums(halves[0]);
  const tail = toNums(halves[1]);
  if ([...head, ...tail].some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing < 1 ? null : [...head, ...new Array<number>(missing).fill(0), ...tail];
}

const v4From = (hi: number, lo: number) => hi * 65536 + lo;

function isPublicIPv6(g: number[]): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible, deprecated): judge the IPv4 inside.
  if (zeroTo(5) && g5 === 0xffff) return isPublicIPv4Value(v4From(g6, g7));
  if (zeroTo(6)) return g6 + g7 > 1 && isPublicIPv4Value(v4From(g6, g7)); // also rules out :: and ::1
  // ::ffff:0:a.b.c.d (SIIT translated)
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return isPublicIPv4Value(v4From(g6, g7));
  // 64:ff9b::/96 well-known NAT64 prefix carries an IPv4 address in its last 32 bits.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPublicIPv4Value(v4From(g6, g7));
  // 64:ff9b:1::/48 is for local NAT64 deployments only.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return false;
  // 2002::/16 6to4 embeds the IPv4 address in bits 16..48.
  if (g0 === 0x2002) return isPublicIPv4Value(v4From(g1, g2));
  // Only 2000::/3 is global unicast; that rules out ULA fc00::/7, link-local fe80::/10,
  // site-local fec0::/10, multicast ff00::/8, discard 100::/64 and everything unassigned.
  if ((g0 & 0xe000) !== 0x2000) return false;
  // 2001::/23 IETF protocol assignments (Teredo 2001::/32 hides an IPv4 address, ORCHID, benchmarking).
  if (g0 === 0x2001 && g1 < 0x200) return false;
  if (g0 === 0x2001 && g1 === 0xdb8) return false; // documentation
  if (g0 === 0x3fff && g1 < 0x1000) return false; // documentation 3fff::/20
  return true;
}

/** True when the address is a globally reachable unicast IPv4 or IPv6 address. Anything unparseable is not. */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, "");
  if (isIP(bare) === 4) {
    const v = parseLooseIPv4(bare);
    return v !== null && isPublicIPv4Value(v);
  }
  const groups = parseIPv6(bare);
  return groups !== null && isPublicIPv6(groups);
}

// ---- host and URL checks ----------------------------------------------------------------------

/**
 * Capture-time check of one host (a hostname or an IP literal, brackets allowed): local names and
 * odd IPv4 spellings are refused, names are resolved and EVERY address must be public, because the
 * browser may connect to any of them. The addresses returned are the ones to connect to.
 */
export async function checkHost(host: string, resolve: Resolver = systemResolver): Promise<HostVerdict> {
  const bare = host
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (!bare) return { ok: false, reason: SSRF_MESSAGES.invalid };
  const family = isIP(bare);
  if (family !== 0) {
    if (family === 4 && !isCanonicalIPv4(bare)) return { ok: false, reason: SSRF_MESSAGES.oddSpelling };
    return isPublicAddress(bare) ? { ok: true, addresses: [bare] } : { ok: false, reason: SSRF_MESSAGES.private };
  }
  const loose = parseLooseIPv4(bare);
  if (loose !== null) {
    return { ok: false, reason: isPublicIPv4Value(loose) ? SSRF_MESSAGES.oddSpelling : SSRF_MESSAGES.private };
  }
  if (isLocalHostname(bare)) return { ok: false, reason: SSRF_MESSAGES.private };
  let addresses: string[];
  try {
    addresses = await resolve(bare);
  } catch (e) {
    const code = e && typeof e === "object" && "code" in e ? String(e.code) : "lookup failed";
    return { ok: false, reason: SSRF_MESSAGES.unreachable, detail: `${bare} does not resolve (${code})` };
  }
  if (addresses.length === 0) return { ok: false, reason: SSRF_MESSAGES.unreachable, detail: `${bare} does not resolve (no addresses)` };
  if (!addresses.every(isPublicAddress))
    return { ok: false, reason: SSRF_MESSAGES.unreachable, detail: `${bare} resolves to a non-public address (${addresses.join(", ")})` };
  return { ok: true, addresses };
}

/** The host exactly as the user typed it (before WHATWG normalisation turns 0x7f000001 into 127.0.0.1). */
function rawHostOf(raw: string): string | null {
  const m = /^[a-z][a-z0-9+.-]*:[\\/]*([^\\/?#]*)/i.exec(raw.trim());
  if (!m) return null;
  const authority = m[1]!;
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  if (hostPort.startsWith("[")) return hostPort.slice(0, hostPort.indexOf("]") + 1);
  return hostPort.replace(/:\d*$/, "");
}

/** Parses a user-supplied target URL and applies every rule that does not need the network. */
export function parseTargetUrl(raw: string, opts: { allowPrivate: boolean }): URL {
  const text = typeof raw === "string" ? raw.trim() : "";
  if (!text || text.length > 2048) throw badRequest(SSRF_MESSAGES.invalid);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest(SSRF_MESSAGES.invalid);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw badRequest(SSRF_MESSAGES.scheme);
  if (!url.hostname) throw badRequest(SSRF_MESSAGES.invalid);
  if (url.username || url.password || /^[a-z]+:[\\/]*[^\\/?#]*@/i.test(text)) throw badRequest(SSRF_MESSAGES.credentials);
  url.hash = "";
  if (opts.allowPrivate) return url;

  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) === 4) {
    const typed = (rawHostOf(text) ?? "").toLowerCase().replace(/\.$/, "");
    if (!isPublicAddress(host)) throw badRequest(SSRF_MESSAGES.private);
    if (typed !== host) throw badRequest(SSRF_MESSAGES.oddSpelling);
  } else if (isIP(host) === 6) {
    if (!isPublicAddress(host)) throw badRequest(SSRF_MESSAGES.private);
  } else if (isLocalHostname(host)) {
    throw badRequest(SSRF_MESSAGES.private);
  }
  return url;
}

/**
 * Add-time guard: parse, scheme, credentials, host spelling, then resolve and require every address
 * to be public. Throws HttpError 400 with a message meant for the user. ALLOW_PRIVATE_TARGETS lifts
 * the address rules (and the DNS lookup) but never the scheme or credential rules.
 */
export async function checkTargetUrl(
  raw: string,
  opts: { allowPrivate: boolean; resolve?: Resolver; log?: (msg: string) => void },
): Promise<URL> {
  const url = parseTargetUrl(raw, opts);
  if (opts.allowPrivate) return url;
  const verdict = await checkHost(url.hostname, opts.resolve);
  if (!verdict.ok) {
    if (verdict.detail) opts.log?.(`target refused: ${verdict.detail}`);
    throw badRequest(verdict.reason);
  }
  return url;
}

/**
 * The capture-time guard for one job: checkHost with answers remembered for the job's lifetime,
 * so a page with 200 requests to the same CDN costs one lookup and can't see two different answers.
 */
export function createHostGuard(resolve: Resolver = systemResolver): (host: string) => Promise<HostVerdict> {
  const verdicts = new Map<string, Promise<HostVerdict>>();
  return (host) => {
    const key = host.toLowerCase();
    let verdict = verdicts.get(key);
    if (!verdict) {
      verdict = checkHost(key, resolve);
      verdicts.set(key, verdict);
    }
    return verdict;
  };
}
