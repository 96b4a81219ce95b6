// A comparison's consent policy through the API: read with the comparison, changed with PATCH
// (validated, owner only), handed to every capture of the next run; each snapshot answers what its
// capture did about a consent banner.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CaptureFn } from "#server/modules/comparisons/active-runs";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools } from "./comparisons-support";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), "di-consent-"));
  dirs.push(dataDir);
  const fake = fakeRunTools();
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: fake.tools });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Consent" }, headers: h })).json;
  const patch = (body: unknown, headers: Record<string, string> = h, id = c.id) =>
    t.call("PATCH", `/api/comparisons/${id}`, { body, headers });
  const get = async () => (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
  return { t, fake, h, c, patch, get };
}

describe("comparison consent policy", () => {
  test("a new comparison rejects; PATCH changes it, GET and the list answer it", async () => {
    const x = await setup();
    expect(x.c.consent).toBe("reject");
    expect((await x.get()).consent).toBe("reject");

    const r = await x.patch({ consent: "keep" });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: x.c.id, consent: "keep", schedule: null });
    expect((await x.get()).consent).toBe("keep");
    const list = (await x.t.call("GET", "/api/comparisons", { headers: x.h })).json;
    expect(list.map((c: { consent: string }) => c.consent)).toEqual(["keep"]);

    expect((await x.patch({ consent: "accept" })).json.consent).toBe("accept");
  });

  test("a value it does not know, no field or an unknown field is 400 with an error; the policy stays", async () => {
    const x = await setup();
    const cases: [unknown, string | RegExp][] = [
      [{ consent: "maybe" }, "Consent must be reject, accept or keep"],
      [{ consent: 1 }, "Consent must be reject, accept or keep"],
      [{ consent: null }, "Consent must be reject, accept or keep"],
      [{}, "Nothing to change: send consent"],
      [{ consent: "keep", colour: "red" }, /colour/],
    ];
    for (const [body, error] of cases) {
      const r = await x.patch(body);
      expect(r.status).toBe(400);
      expect(r.json.error).toMatch(error);
    }
    expect((await x.get()).consent).toBe("reject");
  });

  test("only its owner changes it: another user gets 404, no one signed in 401", async () => {
    const x = await setup();
    const other = await x.t.signup();
    expect((await x.patch({ consent: "keep" }, x.t.auth(other.token))).status).toBe(404);
    expect((await x.patch({ consent: "keep" }, {})).status).toBe(401);
    expect((await x.patch({ consent: "keep" }, x.h, "nope")).status).toBe(404);
    expect((await x.get()).consent).toBe("reject");
  });

  test("every capture of a run gets the policy; each snapshot says what its capture did", async () => {
    const x = await setup();
    // The fake capture reports what a real one records: here a banner no rule knew, masked.
    const capture: CaptureFn = x.fake.tools.capture!;
    x.t.tools!.capture = async (owner, job, onStage) => {
      const r = await capture(owner, job, onStage);
      if (!r.ok) return r;
      const consent = { found: true as const, cmp: null, action: "unhandled" as const };
      return { ...r, extraction: { ...r.extraction, consent, masks: [{ x: 24, y: 689, width: 380, height: 187 }] } };
    };
    for (const [url, label] of [
      ["http://127.0.0.1:9/a", "A"],
      ["http://127.0.0.1:9/b", "B"],
    ])
      await x.t.call("POST", `/api/comparisons/${x.c.id}/targets`, { body: { url, label }, headers: x.h });
    await x.patch({ consent: "keep" });
    expect((await x.t.call("POST", `/api/comparisons/${x.c.id}/start`, { headers: x.h })).status).toBe(202);
    await x.t.services.comparisons.whenIdle();

    expect(x.fake.calls).toHaveLength(4);
    expect(x.fake.calls.map((c) => (c as { consent?: string }).consent)).toEqual(["keep", "keep", "keep", "keep"]);
    const snapshots = (await x.t.call("GET", `/api/comparisons/${x.c.id}/snapshots`, { headers: x.h })).json;
    expect(snapshots).toHaveLength(4);
    for (const s of snapshots) {
      expect(s.consent).toEqual({ found: true, cmp: null, action: "unhandled" });
      expect(s.extraction.masks).toEqual([{ x: 24, y: 689, width: 380, height: 187 }]);
    }
  });
});
