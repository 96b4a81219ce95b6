import { describe, expect, test } from "bun:test";
import { HttpError } from "#server/http/errors";
import {
  checkHost,
  checkTargetUrl,
  createHostGuard,
  isPublicAddress,
  parseIPv6,
  parseLooseIPv4,
  SSRF_MESSAGES,
  type Resolver,
} from "#server/modules/capture/browser/ssrf";

// Offline DNS: the names tests need, nothing else.
const fakeDns: Record<string, string[]> = {
  "example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "shop.example.org": ["151.101.1.69"],
  "rebind.example.net": ["93.184.216.34", "127.0.0.1"],
  "metadata.example.net": ["169.254.169.254"],
  "v6-loopback.example.net": ["::1"],
  "mapped.example.net": ["::ffff:10.0.0.1"],
};
const resolve: Resolver = async (host) => {
  const found = fakeDns[host];
  if (!found) throw Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" });
  return found;
};

async function refusal(url: string, allowPrivate = false): Promise<string | null> {
  try {
    await checkTargetUrl(url, { allowPrivate, resolve });
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    return (err as HttpError).message;
  }
}

describe("isPublicAddress", () => {
  const table: [string, boolean][] = [
    ["93.184.216.34", true],
    ["8.8.8.8", true],
    ["1.1.1.1", true],
    ["100.63.255.255", true],
    ["100.128.0.0", true],
    ["172.15.255.255", true],
    ["172.32.0.0", true],
    ["192.169.0.1", true],
    ["223.255.255.255", true],
    ["127.0.0.1", false],
    ["127.255.255.254", false],
    ["0.0.0.0", false],
    ["0.1.2.3", false],
    ["10.0.0.1", false],
    ["10.255.255.255", false],
    ["172.16.0.1", false],
    ["172.31.255.255", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["100.127.255.255", false],
    ["192.0.0.8", false],
    ["192.0.2.1", false],
    ["198.18.0.1", false],
    ["198.19.255.255", false],
    ["198.51.100.7", false],
    ["203.0.113.9", false],
    ["224.0.0.1", false],
    ["239.255.255.250", false],
    ["240.0.0.1", false],
    ["255.255.255.255", false],
    // IPv6
    ["2606:2800:220:1:248:1893:25c8:1946", true],
    ["2a00:1450:4001:81c::200e", true],
    ["::1", false],
    ["::", false],
    ["fe80::1", false],
    ["fe80::1%eth0", false],
    ["fc00::1", false],
    ["fd12:3456:789a::1", false],
    ["fec0::1", false],
    ["ff02::1", false],
    ["100::1", false],
    ["2001:db8::1", false],
    ["2001::1", false], // Teredo
    ["2001:2::1", false], // benchmarking
    ["3fff::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:7f00:1", false],
    ["::ffff:10.0.0.1", false],
    ["::ffff:169.254.169.254", false],
    ["::ffff:8.8.8.8", true],
    ["::ffff:0:127.0.0.1", false],
    ["::127.0.0.1", false], // IPv4-compatible
    ["::8.8.8.8", true],
    ["64:ff9b::127.0.0.1", false], // NAT64
    ["64:ff9b::a00:1", false],
    ["64:ff9b::808:808", true],
    ["64:ff9b:1::8.8.8.8", false],
    ["2002:7f00:1::1", false], // 6to4 of 127.0.0.1
    ["2002:c0a8:101::1", false], // 6to4 of 192.168.1.1
    ["2002:808:808::1", true],
    ["[::1]", false],
    ["not-an-ip", false],
    ["", false],
    ["1.2.3", false],
    ["1.2.3.4.5", false],
  ];
  for (const [ip, expected] of table) {
    test(`${ip || "(empty)"} is ${expected ? "public" : "not public"}`, () => {
      expect(isPublicAddress(ip)).toBe(expected);
    });
  }
});

describe("odd IPv4 spellings", () => {
  const table: [string, string | null][] = [
    ["127.1", "127.0.0.1"],
    ["127.0.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0177.0000.0000.0001", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["169.254.43518", "169.254.169.254"],
    ["0xa9fea9fe", "169.254.169.254"],
    ["10.1", "10.0.0.1"],
    ["1.2.3.4.", "1.2.3.4"],
    ["256.1.1.1", null],
    ["4294967296", null],
    ["0x100000000", null],
    ["08.1.1.1", null],
    ["example.com", null],
  ];
  for (const [text, expected] of table) {
    test(`${text} reads as ${expected ?? "not an address"}`, () => {
      const v = parseLooseIPv4(text);
      if (expected === null) expect(v).toBeNull();
      else expect([24, 16, 8, 0].map((s) => (v! >>> s) & 255).join(".")).toBe(expected);
    });
  }

  test("IPv6 parser expands embedded IPv4 and :: forms", () => {
    expect(parseIPv6("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6("[2001:db8::1]")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6("1::2::3")).toBeNull();
    expect(parseIPv6("127.0.0.1")).toBeNull();
  });
});

describe("checkTargetUrl at add time", () => {
  const refused: [string, string][] = [
    // not URLs / wrong schemes
    ["", SSRF_MESSAGES.invalid],
    ["not a url", SSRF_MESSAGES.invalid],
    ["example.com", SSRF_MESSAGES.invalid],
    ["http://", SSRF_MESSAGES.invalid],
    ["ftp://example.com/file", SSRF_MESSAGES.scheme],
    ["file:///etc/passwd", SSRF_MESSAGES.scheme],
    ["javascript:alert(1)", SSRF_MESSAGES.scheme],
    ["data:text/html,<h1>hi</h1>", SSRF_MESSAGES.scheme],
    ["gopher://example.com:70/", SSRF_MESSAGES.scheme],
    ["ws://example.com/socket", SSRF_MESSAGES.scheme],
    ["chrome://settings", SSRF_MESSAGES.scheme],
    // loopback in every spelling
    ["http://127.0.0.1/", SSRF_MESSAGES.private],
    ["http://127.1/", SSRF_MESSAGES.private],
    ["http://2130706433/", SSRF_MESSAGES.private],
    ["http://0x7f000001/", SSRF_MESSAGES.private],
    ["http://0177.0.0.1/", SSRF_MESSAGES.private],
    ["http://127.000.000.001/", SSRF_MESSAGES.private],
    ["http://[::1]/", SSRF_MESSAGES.private],
    ["http://[::ffff:127.0.0.1]/", SSRF_MESSAGES.private],
    ["http://[0:0:0:0:0:ffff:7f00:1]/", SSRF_MESSAGES.private],
    ["http://[::]/", SSRF_MESSAGES.private],
    ["http://0.0.0.0/", SSRF_MESSAGES.private],
    ["http://0/", SSRF_MESSAGES.private],
    // private, link-local, CGNAT, multicast
    ["http://10.0.0.1/", SSRF_MESSAGES.private],
    ["http://172.16.5.4:8080/", SSRF_MESSAGES.private],
    ["http://192.168.0.1/admin", SSRF_MESSAGES.private],
    ["http://169.254.169.254/latest/meta-data/", SSRF_MESSAGES.private],
    ["http://[fe80::1]/", SSRF_MESSAGES.private],
    ["http://[fd00::1]/", SSRF_MESSAGES.private],
    ["http://100.64.0.1/", SSRF_MESSAGES.private],
    ["http://224.0.0.1/", SSRF_MESSAGES.private],
    ["http://[ff02::1]/", SSRF_MESSAGES.private],
    // local names
    ["http://localhost/", SSRF_MESSAGES.private],
    ["http://LOCALHOST:3000/", SSRF_MESSAGES.private],
    ["http://localhost./", SSRF_MESSAGES.private],
    ["http://foo.localhost/", SSRF_MESSAGES.private],
    ["http://printer.local/", SSRF_MESSAGES.private],
    ["http://db.internal/", SSRF_MESSAGES.private],
    ["http://intranet/", SSRF_MESSAGES.private],
    // names that resolve somewhere private (all addresses must be public), and a name that does not
    // resolve: one answer for both, so the answers can't map the internal DNS
    ["http://metadata.example.net/", SSRF_MESSAGES.unreachable],
    ["http://rebind.example.net/", SSRF_MESSAGES.unreachable],
    ["http://v6-loopback.example.net/", SSRF_MESSAGES.unreachable],
    ["http://mapped.example.net/", SSRF_MESSAGES.unreachable],
    ["http://does-not-exist.example/", SSRF_MESSAGES.unreachable],
    // user@host tricks
    ["http://user@example.com/", SSRF_MESSAGES.credentials],
    ["http://user:pass@example.com/", SSRF_MESSAGES.credentials],
    ["http://example.com@127.0.0.1/", SSRF_MESSAGES.credentials],
    ["http://example.com:80@localhost/", SSRF_MESSAGES.credentials],
    ["http://@127.0.0.1/", SSRF_MESSAGES.credentials],
    ["http://127.0.0.1#@example.com/", SSRF_MESSAGES.private],
    ["http://127.0.0.1\\@example.com/", SSRF_MESSAGES.private],
    // a public address in an odd spelling is still refused: nobody types 0x5db8d822 by accident
    ["http://0x5db8d822/", SSRF_MESSAGES.oddSpelling],
    ["http://1572395042/", SSRF_MESSAGES.oddSpelling],
  ];
  for (const [url, message] of refused) {
    test(`refuses ${JSON.stringify(url)}`, async () => {
      expect(await refusal(url)).toBe(message);
    });
  }

  const accepted: [string, string][] = [
    ["https://example.com", "https://example.com/"],
    ["  https://example.com/pricing?plan=pro#faq  ", "https://example.com/pricing?plan=pro"],
    ["http://shop.example.org:8080/", "http://shop.example.org:8080/"],
    ["https://EXAMPLE.com./", "https://example.com./"],
    ["http://93.184.216.34/", "http://93.184.216.34/"],
    ["http://[2606:2800:220:1:248:1893:25c8:1946]/", "http://[2606:2800:220:1:248:1893:25c8:1946]/"],
  ];
  for (const [url, normalised] of accepted) {
    test(`accepts ${JSON.stringify(url)}`, async () => {
      const parsed = await checkTargetUrl(url, { allowPrivate: false, resolve });
      expect(parsed.href).toBe(normalised);
    });
  }

  test("ALLOW_PRIVATE_TARGETS lifts the address rules but not scheme or credentials", async () => {
    expect(await refusal("http://127.0.0.1:4000/", true)).toBeNull();
    expect(await refusal("http://localhost:3000/", true)).toBeNull();
    expect(await refusal("http://[::1]:8080/", true)).toBeNull();
    expect(await refusal("http://192.168.1.20/", true)).toBeNull();
    expect(await refusal("file:///etc/passwd", true)).toBe(SSRF_MESSAGES.scheme);
    expect(await refusal("http://user:pw@localhost/", true)).toBe(SSRF_MESSAGES.credentials);
    expect(await refusal("nope", true)).toBe(SSRF_MESSAGES.invalid);
  });

  test("every rejection is a 400 HttpError with a readable message", async () => {
    const err = await checkTargetUrl("http://127.1/", { allowPrivate: false, resolve }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    expect((err as HttpError).message).toBe("That address points to a private or local network, which is not allowed");
  });
});

describe("capture-time host guard", () => {
  test("checkHost returns the addresses to connect to, or the reason", async () => {
    expect(await checkHost("example.com", resolve)).toEqual({ ok: true, addresses: fakeDns["example.com"]! });
    expect(await checkHost("[::1]", resolve)).toEqual({ ok: false, reason: SSRF_MESSAGES.private });
    expect(await checkHost("127.1", resolve)).toEqual({ ok: false, reason: SSRF_MESSAGES.private });
    expect(await checkHost("rebind.example.net", resolve)).toMatchObject({ ok: false, reason: SSRF_MESSAGES.unreachable });
    expect(await checkHost("nowhere.example", resolve)).toMatchObject({ ok: false, reason: SSRF_MESSAGES.unreachable });
    expect(await checkHost("8.8.8.8", resolve)).toEqual({ ok: true, addresses: ["8.8.8.8"] });
  });

  test("a job's guard asks DNS once per host, so an answer can't change mid-capture", async () => {
    let calls = 0;
    let answer = ["93.184.216.34"];
    const guard = createHostGuard(async () => {
      calls++;
      return answer;
    });
    expect((await guard("flip.example.com")).ok).toBe(true);
    answer = ["127.0.0.1"];
    expect((await guard("FLIP.example.com")).ok).toBe(true);
    expect(calls).toBe(1);
    // A fresh job asks again and sees the private answer.
    expect((await createHostGuard(async () => answer)("flip.example.com")).ok).toBe(false);
  });
});
