// Steps before capture without a browser: the rules a step list is checked against, which of its
// steps are the login, the secrets typed in and masked, and a run's shared login sessions.
import { describe, expect, test } from "bun:test";
import type { CaptureJobInput, CaptureResult } from "#server/modules/capture/public";
import type { Page } from "playwright-core";
import { createStepSessions } from "#server/modules/capture/public";
import {
  loginPrefixLength,
  MAX_STEPS,
  MAX_TOTAL_WAIT_MS,
  secretNamesIn,
  stepsProblem,
  type SessionState,
  type Step,
} from "#server/modules/capture/model";
import { runSteps, StepFailed, type StepsRun } from "#server/modules/capture/steps/run-steps";
import { MissingSecret, scrubber, scrubDeep, SECRET_MASK, substitute } from "#server/modules/capture/steps/secrets";

const SITE = "https://tally.example";

describe("stepsProblem", () => {
  test("a sound list passes", () => {
    const steps: Step[] = [
      { type: "click", text: "Accept" },
      { type: "fill", selector: "#email", value: "ada@example.com" },
      { type: "fill", selector: "#password", value: "{{secret:password}}" },
      { type: "press", value: "Enter" },
      { type: "wait", selector: "#plan" },
      { type: "select", selector: "#period", value: "yearly" },
      { type: "scroll" },
      { type: "hide", selector: "#chat, .intercom" },
      { type: "goto", url: "/pricing" },
      { type: "goto", url: `${SITE}/features` },
      { type: "wait", ms: 10_000 },
    ];
    expect(stepsProblem(steps, SITE)).toBeNull();
  });

  test("each missing field is named with the step's number", () => {
    const cases: [Step, string][] = [
      [{ type: "click" }, "Step 1: a click needs a selector or a text"],
      [{ type: "fill", value: "x" }, "Step 1: a fill needs a selector"],
      [{ type: "fill", selector: "#a" }, "Step 1: a fill needs a value"],
      [{ type: "select", selector: "#a" }, "Step 1: a select needs a value"],
      [{ type: "press" }, "Step 1: a press needs a key as its value (for example Enter)"],
      [{ type: "wait" }, "Step 1: a wait needs a selector or ms"],
      [{ type: "hide" }, "Step 1: a hide needs a selector"],
      [{ type: "goto" }, "Step 1: a goto needs a url"],
    ];
    for (const [step, message] of cases) expect(stepsProblem([step], SITE)).toBe(message);
    expect(stepsProblem([{ type: "scroll" }, { type: "click" }], SITE)).toBe("Step 2: a click needs a selector or a text");
  });

  test("a goto stays on the site's origin", () => {
    expect(stepsProblem([{ type: "scroll" }, { type: "goto", url: "https://evil.example/login" }], SITE)).toBe(
      `Step 2: a goto stays on the site (${SITE})`,
    );
    expect(stepsProblem([{ type: "goto", url: "http://tally.example/" }], SITE)).toBe(`Step 1: a goto stays on the site (${SITE})`);
    expect(stepsProblem([{ type: "goto", url: "//evil.example/x" }], SITE)).toBe(`Step 1: a goto stays on the site (${SITE})`);
    expect(stepsProblem([{ type: "goto", url: "javascript:alert(1)" }], SITE)).toBe("Step 1: the goto url is not a web address");
  });

  test("too many steps, and waits beyond the total", () => {
    expect(
      stepsProblem(
        Array.from({ length: MAX_STEPS + 1 }, (): Step => ({ type: "scroll" })),
        SITE,
      ),
    ).toBe(`A page has at most ${MAX_STEPS} steps`);
    const waits: Step[] = [
      { type: "wait", ms: 10_000 },
      { type: "wait", ms: 10_000 },
      { type: "wait", ms: 10_000 },
      { type: "wait", ms: 1 },
    ];
    expect(stepsProblem(waits, SITE)).toBe(`Step 4: the waits add up to more than ${MAX_TOTAL_WAIT_MS} ms`);
  });

  test("secretNamesIn lists each secret once", () => {
    const steps: Step[] = [
      { type: "fill", selector: "#a", value: "{{secret:user}}" },
      { type: "fill", selector: "#b", value: "{{ secret:password }} and {{secret:user}}" },
    ];
    expect(secretNamesIn(steps)).toEqual(["user", "password"]);
  });
});

describe("loginPrefixLength", () => {
  const fillEmail: Step = { type: "fill", selector: "#email", value: "ada@example.com" };
  const fillSecret: Step = { type: "fill", selector: "#password", value: "{{secret:password}}" };
  const submit: Step = { type: "click", text: "Sign in" };
  const waitPlan: Step = { type: "wait", selector: "#plan" };

  test("no secret, no login", () => {
    expect(loginPrefixLength([])).toBe(0);
    expect(loginPrefixLength([fillEmail, submit, waitPlan])).toBe(0);
  });

  test("up to the last secret, then the submit and its waits", () => {
    expect(loginPrefixLength([fillEmail, fillSecret, submit, waitPlan])).toBe(4);
    expect(loginPrefixLength([fillEmail, fillSecret, submit, waitPlan, { type: "wait", ms: 500 }, { type: "goto", url: "/x" }])).toBe(5);
    expect(loginPrefixLength([fillEmail, fillSecret, { type: "press", value: "Enter" }, waitPlan])).toBe(4);
    expect(loginPrefixLength([fillSecret])).toBe(1);
    expect(loginPrefixLength([fillSecret, waitPlan])).toBe(2);
  });

  test("a second click after the submit is the page's own step, not the login's", () => {
    const steps: Step[] = [fillEmail, fillSecret, submit, waitPlan, { type: "click", text: "Yearly" }];
    expect(loginPrefixLength(steps)).toBe(4);
  });

  test("the last secret counts: a two-screen login ends at the second", () => {
    const steps: Step[] = [
      { type: "fill", selector: "#user", value: "{{secret:user}}" },
      { type: "click", text: "Next" },
      fillSecret,
      submit,
      { type: "hide", selector: "#chat" },
    ];
    expect(loginPrefixLength(steps)).toBe(4);
  });
});

describe("secrets in values and text", () => {
  test("substitute types each named secret in, and refuses a missing one", () => {
    expect(substitute("{{secret:user}}:{{ secret:pw }}", { user: "ada", pw: "s3cret" })).toBe("ada:s3cret");
    expect(substitute("plain", {})).toBe("plain");
    expect(() => substitute("{{secret:pw}}", {})).toThrow(MissingSecret);
    // Names are looked up as own keys only.
    expect(() => substitute("{{secret:constructor}}", {})).toThrow('the site has no secret named "constructor"');
  });

  test("scrubber masks every value, the longest first, and its JSON spelling", () => {
    const scrub = scrubber(["abc", "abcdef", 'q"uote', ""]);
    expect(scrub("typed abcdef then abc")).toBe(`typed ${SECRET_MASK} then ${SECRET_MASK}`);
    expect(scrub('{"v":"q\\"uote"}')).toBe(`{"v":"${SECRET_MASK}"}`);
    expect(scrubber([])("untouched")).toBe("untouched");
    const spaced = scrubber(["a b&c"]);
    for (const spelling of ["a b&c", "a%20b%26c", "a+b%26c", "a b&amp;c"]) expect(spaced(`[${spelling}]`)).toBe(`[${SECRET_MASK}]`);
  });

  test("scrubDeep masks every string of plain data and leaves untouched data as it was", () => {
    const scrub = scrubber(["hunter2"]);
    const data = { a: ["x hunter2 y", 3, null], b: { hunter2: "ok", c: true }, d: "clean" };
    const out: unknown = scrubDeep(data, scrub);
    expect(JSON.stringify(out)).not.toContain("hunter2");
    expect(out).toEqual({ a: [`x ${SECRET_MASK} y`, 3, null], b: { [SECRET_MASK]: "ok", c: true }, d: "clean" });
    const clean = { a: ["x"], b: { c: 1 } };
    expect(scrubDeep(clean, scrub)).toBe(clean);
  });
});

describe("a run's shared logins", () => {
  const login: Step[] = [
    { type: "fill", selector: "#email", value: "ada@example.com" },
    { type: "fill", selector: "#password", value: "{{secret:password}}" },
    { type: "click", text: "Sign in" },
    { type: "wait", selector: "#plan" },
  ];
  const state: SessionState = {
    cookies: [
      { name: "sid", value: "abc", domain: "tally.example", path: "/", expires: -1, httpOnly: true, secure: true, sameSite: "Lax" },
    ],
    origins: [],
  };
  const page = (path: string, extra: Step[] = []): CaptureJobInput => ({
    url: `${SITE}${path}`,
    viewport: "desktop",
    screenshotPath: `/tmp/${path}.png`,
    steps: [...login, ...extra],
    secrets: { password: "pw" },
    siteOrigin: SITE,
  });
  const done = (session?: SessionState): CaptureResult => ({
    ok: true,
    extraction: {} as never,
    screenshotPath: "/tmp/x.png",
    ...(session ? { session } : {}),
  });

  /** A pool stand-in: records what it was asked, answers when told. */
  function fakePool() {
    const asked: { input: CaptureJobInput; answer: (r: CaptureResult) => void }[] = [];
    const submit = (input: CaptureJobInput) => new Promise<CaptureResult>((answer) => asked.push({ input, answer }));
    return { asked, submit };
  }
  const tick = () => new Promise((r) => setTimeout(r, 0));

  test("pages of one site with the same login run it once; the others wait, start from its session and skip it", async () => {
    const sessions = createStepSessions();
    const pool = fakePool();
    const first = sessions.capture(page("/pricing"), pool.submit);
    const second = sessions.capture(page("/features", [{ type: "hide", selector: "#chat" }]), pool.submit);
    await tick();
    expect(pool.asked.length).toBe(1); // the second waits for the login
    expect(pool.asked[0]!.input.keepSession).toBe(true);
    expect(pool.asked[0]!.input.session).toBeUndefined();
    pool.asked[0]!.answer(done(state));
    const firstResult = await first;
    expect("session" in firstResult).toBe(false); // the caller never holds the session
    await tick();
    expect(pool.asked.length).toBe(2);
    expect(pool.asked[1]!.input.session).toEqual({ state, skip: 4 });
    expect(pool.asked[1]!.input.keepSession).toBeUndefined();
    pool.asked[1]!.answer(done());
    expect((await second).ok).toBe(true);
    // Later pages start from the session at once.
    const third = sessions.capture(page("/docs"), pool.submit);
    await tick();
    expect(pool.asked[2]!.input.session).toEqual({ state, skip: 4 });
    pool.asked[2]!.answer(done());
    await third;
  });

  test("a login that got no session is tried again by the next page, once, while the others wait", async () => {
    const sessions = createStepSessions();
    const pool = fakePool();
    const pages = ["/a", "/b", "/c"].map((p) => sessions.capture(page(p), pool.submit));
    await tick();
    expect(pool.asked.length).toBe(1);
    pool.asked[0]!.answer({ ok: false, reason: "Step 4: nothing", step: { index: 4, error: "nothing" }, screenshotPath: null });
    await tick();
    await tick();
    expect(pool.asked.length).toBe(2); // one page tries the login again, the third waits
    expect(pool.asked[1]!.input.keepSession).toBe(true);
    pool.asked[1]!.answer(done(state));
    await tick();
    await tick();
    expect(pool.asked.length).toBe(3);
    expect(pool.asked[2]!.input.session?.skip).toBe(4);
    pool.asked[2]!.answer(done());
    const results = await Promise.all(pages);
    expect(results.map((r) => r.ok)).toEqual([false, true, true]);
  });

  test("a capture that throws frees the login for the next page", async () => {
    const sessions = createStepSessions();
    await expect(sessions.capture(page("/a"), () => Promise.reject(new Error("pool closed")))).rejects.toThrow("pool closed");
    const pool = fakePool();
    const next = sessions.capture(page("/b"), pool.submit);
    await tick();
    expect(pool.asked[0]!.input.keepSession).toBe(true);
    pool.asked[0]!.answer(done(state));
    await next;
  });

  test("different logins, different sites and pages without a login do not share", async () => {
    const sessions = createStepSessions();
    const pool = fakePool();
    const other = page("/a");
    other.steps = [{ ...login[0]!, value: "grace@example.com" }, ...login.slice(1)];
    const elsewhere = { ...page("/a"), url: "https://rival.example/a", siteOrigin: "https://rival.example" };
    const plain = { ...page("/a"), steps: [{ type: "hide", selector: "#chat" } as Step] };
    const all = [page("/a"), other, elsewhere, plain].map((p) => sessions.capture(p, pool.submit));
    await tick();
    expect(pool.asked.length).toBe(4);
    expect(pool.asked.map((a) => a.input.keepSession ?? false)).toEqual([true, true, true, false]);
    for (const a of pool.asked) a.answer(done(state));
    await Promise.all(all);
  });
});

describe("runSteps without a browser", () => {
  /** Just enough of a page for the paths that decide before they touch it. */
  const fakePage = (elementHandle: () => Promise<never> = () => Promise.reject(new Error("unused"))) => {
    const locator = { filter: () => locator, first: () => locator, elementHandle, count: async () => 1 };
    return { isClosed: () => false, url: () => `${SITE}/login`, locator: () => locator } as unknown as Page;
  };
  const run = (steps: Step[], over: Partial<StepsRun> = {}) =>
    runSteps({
      page: fakePage(),
      steps,
      siteOrigin: SITE,
      secrets: { password: "pw-s3cret" },
      scrub: scrubber(["pw-s3cret"]),
      deadline: Date.now() + 60_000,
      ...over,
    });
  const failure = async (p: Promise<void>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    if (!(err instanceof StepFailed)) throw new Error(`expected StepFailed, got ${String(err)}`);
    return err.failure;
  };

  test("a goto off the site, a missing secret and a secret as a key fail at their step, untyped", async () => {
    expect(await failure(run([{ type: "goto", url: "https://evil.example/" }]))).toEqual({
      index: 1,
      error: `a goto stays on the site (${SITE})`,
    });
    expect(await failure(run([{ type: "fill", selector: "#u", value: "{{secret:user}}" }]))).toEqual({
      index: 1,
      error: 'the site has no secret named "user"',
    });
    expect(await failure(run([{ type: "press", value: "{{secret:password}}" }]))).toEqual({
      index: 1,
      error: "a press takes a key such as Enter, not a secret",
    });
  });

  test("past the deadline the next step fails; skipped steps (a shared login) are not run", async () => {
    const steps: Step[] = [
      { type: "fill", selector: "#password", value: "{{secret:password}}" },
      { type: "click", text: "Sign in" },
      { type: "wait", ms: 10 },
    ];
    expect(await failure(run(steps, { skip: 2, deadline: Date.now() - 1 }))).toEqual({
      index: 3,
      error: "the steps ran out of time before this one",
    });
  });

  test("a browser error quoting the secret reaches the result masked, without its call log", async () => {
    const page = fakePage(() => Promise.reject(new Error("locator.elementHandle: saw value pw-s3cret\nCall log:\n  - pw-s3cret")));
    const failed = await failure(run([{ type: "fill", selector: "#password", value: "{{secret:password}}" }], { page }));
    expect(failed).toEqual({ index: 1, error: `saw value ${SECRET_MASK}` });
  });

  test("a secret is refused on a page of another origin before any element is looked for", async () => {
    const page = { ...fakePage(), url: () => "https://evil.example/login" } as unknown as Page;
    expect(await failure(run([{ type: "fill", selector: "#password", value: "{{secret:password}}" }], { page }))).toEqual({
      index: 1,
      error: `a secret is only typed into ${SITE}, and the page is on https://evil.example`,
    });
  });
});
