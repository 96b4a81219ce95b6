// Adding a target: a name that resolves to a private address and a name that does not resolve get
// the same answer, so the answers can't be used to map the internal DNS. The log tells them apart.
import { expect, test } from "bun:test";
import { HttpError } from "#server/http/errors";
import { SSRF_MESSAGES, checkTargetUrl, type Resolver } from "#server/modules/capture/browser/ssrf";
import { makeTestApp } from "#tests/support/app";

const dns: Record<string, string[]> = {
  "wiki.corp.example.net": ["10.20.30.40"],
  "www.example.com": ["93.184.216.34"],
};
const resolve: Resolver = async (name) => {
  const found = dns[name];
  if (!found) throw Object.assign(new Error(`queryA ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  return found;
};

async function refusal(url: string) {
  const logged: string[] = [];
  const err = await checkTargetUrl(url, { allowPrivate: false, resolve, log: (m) => logged.push(m) }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(HttpError);
  return { status: (err as HttpError).status, message: (err as HttpError).message, logged };
}

test("a private-resolving name and an unknown name give one message; the log has the difference", async () => {
  const internal = await refusal("http://wiki.corp.example.net/");
  const unknown = await refusal("http://no-such-name.corp.example.net/");
  expect(internal.status).toBe(400);
  expect(unknown.status).toBe(400);
  expect(internal.message).toBe(unknown.message);
  expect(internal.message).toBe(SSRF_MESSAGES.unreachable);
  expect(internal.logged.join()).toContain("10.20.30.40");
  expect(unknown.logged.join()).toContain("ENOTFOUND");
  expect((await checkTargetUrl("http://www.example.com/", { allowPrivate: false, resolve })).href).toBe("http://www.example.com/");
});

test("through the API, an unknown name gets that message too", async () => {
  const t = makeTestApp();
  const u = await t.signup();
  const c = await t.call("POST", "/api/comparisons", { headers: t.auth(u.token), body: { name: "Oracle" } });
  const r = await t.call("POST", `/api/comparisons/${c.json.id}/targets`, {
    headers: t.auth(u.token),
    body: { url: "http://no-such-host.invalid/", label: "Nowhere" },
  });
  expect(r.status).toBe(400);
  expect(r.json.error).toBe(SSRF_MESSAGES.unreachable);
});
