import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools } from "./comparisons-support";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function setup(opts: { allowPrivate?: boolean; tools?: boolean } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "di-cmp-"));
  dirs.push(dataDir);
  const fake = fakeRunTools();
  const t = makeTestApp({
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: opts.allowPrivate === false ? "0" : "1" },
    runTools: opts.tools === false ? undefined : fake.tools,
  });
  return { ...t, fake, dataDir };
}

async function user(t: ReturnType<typeof setup>) {
  const u = await t.signup();
  const h = t.auth(u.token);
  return {
    ...u,
    h,
    create: (body: unknown) => t.call("POST", "/api/comparisons", { body, headers: h }),
    addTarget: (id: string, body: unknown) => t.call("POST", `/api/comparisons/${id}/targets`, { body, headers: h }),
  };
}

describe("comparisons: validation messages (spec section 5)", () => {
  test("create comparison", async () => {
    const t = setup();
    const u = await user(t);
    const cases: [unknown, string][] = [
      [{}, "Comparison name is required"],
      [{ name: "" }, "Comparison name is required"],
      [{ name: "   " }, "Comparison name is required"],
      [{ name: 42 }, "Comparison name is required"],
      [{ name: "x".repeat(101) }, "Name must be under 100 characters"],
      [{ name: "ok", description: "d".repeat(501) }, "Description must be under 500 characters"],
    ];
    for (const [body, message] of cases) {
      const r = await u.create(body);
      expect(r.status).toBe(400);
      expect(r.json.error).toBe(message);
    }
    const ok = await u.create({ name: "x".repeat(100), description: "d".repeat(500) });
    expect(ok.status).toBe(201);
    expect(ok.json).toMatchObject({ name: "x".repeat(100), status: "pending", targetCount: 0, progress: null });
    const blankDescription = await u.create({ name: "  Trimmed  ", description: "" });
    expect(blankDescription.json).toMatchObject({ name: "Trimmed", description: null });
  });

  test("add target", async () => {
    const t = setup();
    const u = await user(t);
    const c = (await u.create({ name: "Rivals" })).json;
    const cases: [unknown, string][] = [
      [{ label: "A" }, "Please enter a valid URL"],
      [{ url: "", label: "A" }, "Please enter a valid URL"],
      [{ url: "not a url", label: "A" }, "Please enter a valid URL"],
      [{ url: "example.com", label: "A" }, "Please enter a valid URL"],
      [{ url: "ftp://example.com/", label: "A" }, "Please enter a valid URL"],
      [{ url: "javascript:alert(1)", label: "A" }, "Please enter a valid URL"],
      [{ url: "http://127.0.0.1:9/a" }, "Label is required"],
      [{ url: "http://127.0.0.1:9/a", label: "  " }, "Label is required"],
      [{ url: "http://127.0.0.1:9/a", label: "L".repeat(51) }, "Label must be under 50 characters"],
    ];
    for (const [body, message] of cases) {
      const r = await u.addTarget(c.id, body);
      expect(r.status).toBe(400);
      expect(r.json.error).toBe(message);
    }
    const ok = await u.addTarget(c.id, { url: "http://127.0.0.1:9/a", label: "L".repeat(50) });
    expect(ok.status).toBe(201);
    expect(ok.json).toMatchObject({
      comparisonId: c.id,
      label: "L".repeat(50),
      url: "http://127.0.0.1:9/a",
      status: "pending",
      error: null,
    });
  });

  test("the server refuses private addresses unless ALLOW_PRIVATE_TARGETS is set", async () => {
    const t = setup({ allowPrivate: false });
    const u = await user(t);
    const c = (await u.create({ name: "Rivals" })).json;
    for (const url of ["http://127.0.0.1/", "http://10.0.0.1/", "http://169.254.169.254/latest/meta-data"]) {
      const r = await u.addTarget(c.id, { url, label: "Internal" });
      expect(r.status).toBe(400);
      expect(typeof r.json.error).toBe("string");
    }
    expect((await t.call("GET", `/api/comparisons/${c.id}/targets`, { headers: u.h })).json).toEqual([]);
  });

  test("start needs at least 2 websites", async () => {
    const t = setup();
    const u = await user(t);
    const c = (await u.create({ name: "Rivals" })).json;
    for (let i = 0; i < 2; i++) {
      const r = await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: u.h });
      expect(r.status).toBe(400);
      expect(r.json.error).toBe("At least 2 websites are required to run a comparison");
      await u.addTarget(c.id, { url: `http://127.0.0.1:9/${i}`, label: `Site ${i}` });
    }
    expect((await t.call("GET", `/api/comparisons/${c.id}`, { headers: u.h })).json.status).toBe("pending");
  });

  test("without run tools, start answers 503 and changes nothing", async () => {
    const t = setup({ tools: false });
    const u = await user(t);
    const c = (await u.create({ name: "Rivals" })).json;
    await u.addTarget(c.id, { url: "http://127.0.0.1:9/a", label: "A" });
    await u.addTarget(c.id, { url: "http://127.0.0.1:9/b", label: "B" });
    const r = await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: u.h });
    expect(r.status).toBe(503);
    expect((await t.call("GET", `/api/comparisons/${c.id}`, { headers: u.h })).json.status).toBe("pending");
  });
});

describe("comparisons: limits and conflicts", () => {
  test("at most 10 websites per comparison, no duplicates", async () => {
    const t = setup();
    const u = await user(t);
    const c = (await u.create({ name: "Rivals" })).json;
    for (let i = 0; i < 10; i++) expect((await u.addTarget(c.id, { url: `http://127.0.0.1:9/${i}`, label: `S${i}` })).status).toBe(201);
    const eleventh = await u.addTarget(c.id, { url: "http://127.0.0.1:9/x", label: "One too many" });
    expect(eleventh.status).toBe(409);
    expect(eleventh.json.error).toBe("A comparison can hold up to 10 websites");
    const c2 = (await u.create({ name: "Other" })).json;
    await u.addTarget(c2.id, { url: "http://127.0.0.1:9/same", label: "First" });
    const again = await u.addTarget(c2.id, { url: "http://127.0.0.1:9/same", label: "Second" });
    expect(again.status).toBe(409);
    expect(again.json.error).toBe("This website is already in the comparison");
    expect((await t.call("GET", `/api/comparisons/${c.id}`, { headers: u.h })).json.targetCount).toBe(10);
  });

  test("at most 200 comparisons per user", async () => {
    const t = setup();
    const u = await user(t);
    for (let i = 0; i < 200; i++) expect((await u.create({ name: `C${i}` })).status).toBe(201);
    const r = await u.create({ name: "One more" });
    expect(r.status).toBe(409);
    expect(r.json.error).toBe("You can keep up to 200 comparisons. Delete one to create another.");
    const other = await user(t);
    expect((await other.create({ name: "Mine" })).status).toBe(201);
  });
});

describe("comparisons: ownership", () => {
  test("another user gets 404 on every id route and never sees the rows in lists", async () => {
    const t = setup();
    const owner = await user(t);
    const intruder = await user(t);
    const c = (await owner.create({ name: "Secret plans", description: "hush" })).json;
    const a = (await owner.addTarget(c.id, { url: "http://127.0.0.1:9/a", label: "A" })).json;
    await owner.addTarget(c.id, { url: "http://127.0.0.1:9/b", label: "B" });
    expect((await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: owner.h })).status).toBe(202);
    await t.services.comparisons.whenIdle();
    const snaps = (await t.call("GET", `/api/comparisons/${c.id}/snapshots`, { headers: owner.h })).json;
    expect(snaps.length).toBe(4);

    const h = intruder.h;
    const attempts: [string, string, unknown?][] = [
      ["GET", `/api/comparisons/${c.id}`],
      ["GET", `/api/comparisons/${c.id}/targets`],
      ["POST", `/api/comparisons/${c.id}/targets`, { url: "http://127.0.0.1:9/c", label: "C" }],
      ["POST", `/api/comparisons/${c.id}/start`],
      ["GET", `/api/comparisons/${c.id}/snapshots`],
      ["GET", `/api/comparisons/${c.id}/diffs`],
      ["GET", `/api/comparisons/${c.id}/findings`],
      ["GET", `/api/comparisons/${c.id}/export?format=json`],
      ["GET", `/api/comparisons/${c.id}/export?format=html`],
      ["GET", `/api/snapshots/${snaps[0].id}/screenshot`],
      ["DELETE", `/api/targets/${a.id}`],
      ["DELETE", `/api/comparisons/${c.id}`],
    ];
    for (const [method, path, body] of attempts) {
      const r = await t.call(method, path, { headers: h, body });
      expect({ path, method, status: r.status }).toEqual({ path, method, status: 404 });
      expect(r.text).not.toContain("Secret plans");
    }
    // The cookie route for <img> tags checks ownership too.
    const viaCookie = await t.call("GET", `/api/snapshots/${snaps[0].id}/screenshot`, { headers: { cookie: intruder.cookie } });
    expect(viaCookie.status).toBe(404);

    expect((await t.call("GET", "/api/comparisons", { headers: h })).json).toEqual([]);
    const mine = (await t.call("GET", "/api/comparisons", { headers: owner.h })).json;
    expect(mine.map((x: any) => x.id)).toEqual([c.id]);
    // Nothing the intruder tried changed the owner's data.
    const after = (await t.call("GET", `/api/comparisons/${c.id}/targets`, { headers: owner.h })).json;
    expect(after.length).toBe(2);
  });

  test("anonymous callers get 401", async () => {
    const t = setup();
    const owner = await user(t);
    const c = (await owner.create({ name: "Mine" })).json;
    for (const [method, path] of [
      ["GET", "/api/comparisons"],
      ["POST", "/api/comparisons"],
      ["GET", `/api/comparisons/${c.id}`],
      ["POST", `/api/comparisons/${c.id}/start`],
      ["GET", `/api/comparisons/${c.id}/findings`],
      ["GET", `/api/comparisons/${c.id}/export`],
      ["GET", "/api/snapshots/anything/screenshot"],
      ["DELETE", "/api/targets/anything"],
    ] as const) {
      const r = await t.call(method, path, { headers: { authorization: "Bearer not-a-token" } });
      expect({ path, status: r.status }).toEqual({ path, status: 401 });
    }
  });

  test("unknown ids are 404 with a JSON error", async () => {
    const t = setup();
    const u = await user(t);
    for (const path of [
      "/api/comparisons/nope",
      "/api/comparisons/nope/targets",
      "/api/comparisons/nope/snapshots",
      "/api/snapshots/nope/screenshot",
    ]) {
      const r = await t.call("GET", path, { headers: u.h });
      expect(r.status).toBe(404);
      expect(typeof r.json.error).toBe("string");
    }
    const r = await t.call("GET", "/api/comparisons/nope/export?format=pdf", { headers: u.h });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("Format must be json or html");
  });
});
