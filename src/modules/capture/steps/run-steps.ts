// Runs a page's steps (model.ts) in the browser, one at a time, each within its own time limit and
// all of them within one deadline. The first step that cannot be done stops the list: StepFailed
// names it (from 1) and says why, in words a user can act on and with every secret value masked.
//
// A secret is only ever typed into a document of the site's own origin: the page's top document
// and the document of the very element it goes into are checked just before it is typed, whatever
// earlier steps did (a click may have led elsewhere). The element is held while it is typed into,
// so a document that navigated in between takes nothing.
import { errors, type ElementHandle, type Frame, type Locator, type Page, type Request } from "playwright-core";
import { CaptureError } from "../phases/capture-error";
import { seconds } from "../phases/lifetime";
import { gotoTarget, secretNamesIn, type Step, type StepFailure } from "./model";
import { MissingSecret, substitute } from "./secrets";

/** One step waits at most this long for its element, its navigation or its condition. */
export const STEP_TIMEOUT_MS = 10_000;
/** After a click or a key press, how long a navigation it started has to show up. */
export const NAVIGATION_GRACE_MS = 300;

/** Why a step list stopped; `failure.error` has been scrubbed of secret values. */
export class StepFailed extends Error {
  constructor(readonly failure: StepFailure) {
    super(`Step ${failure.index}: ${failure.error}`);
  }
}

/** A step that cannot be done, in the user's words (no Playwright message to translate). */
class StepProblem extends Error {}

export interface StepsRun {
  page: Page;
  steps: readonly Step[];
  /** The origin secrets may be typed into and gotos stay on. */
  siteOrigin: string;
  secrets: Readonly<Record<string, string>>;
  /** Masks secret values out of a text. */
  scrub: (text: string) => string;
  /** Steps already done by a login this run shares (sessions.ts): skipped, their `hide`s applied again. */
  skip?: number;
  /** Date.now() by which every step must be done. */
  deadline: number;
  /** Races a step against the tab crashing (a CaptureError, which is the capture's failure, not the step's). */
  race?: <T>(p: Promise<T>) => Promise<T>;
  /** Called after each step that was done, with its number (from 1). */
  afterStep?: (index: number) => Promise<void>;
  /** Filled in with the fields secrets were typed into, for masking them in a screenshot. */
  typedSecrets?: Locator[];
}

export async function runSteps(run: StepsRun): Promise<void> {
  const { steps, scrub } = run;
  const race = run.race ?? (<T>(p: Promise<T>) => p);
  const skip = run.skip ?? 0;
  for (const [i, step] of steps.entries()) {
    const index = i + 1;
    if (i < skip) {
      // What a shared login hid (a chat widget over the page) stays hidden on this page too.
      if (step.type === "hide") await race(hide(run.page, step.selector as string)).catch(() => {});
      continue;
    }
    const left = run.deadline - Date.now();
    if (left <= 0) throw new StepFailed({ index, error: "the steps ran out of time before this one" });
    try {
      await race(runStep(run, step, Math.min(STEP_TIMEOUT_MS, left)));
    } catch (err) {
      if (err instanceof CaptureError) throw err;
      // The tab or the context went away (the capture's limit, a crash): that is the capture's end, not the step's.
      if (run.page.isClosed()) throw new CaptureError(scrub(messageOf(err)));
      throw new StepFailed({ index, error: scrub(await describe(run.page, err, step, left)) });
    }
    await run.afterStep?.(index);
  }
}

async function runStep(run: StepsRun, step: Step, timeout: number): Promise<void> {
  const { page } = run;
  switch (step.type) {
    case "click": {
      const target = shown(await locate(page, step));
      return followNavigation(page, timeout, () => target.click({ timeout }));
    }
    case "fill":
    case "select":
      return typeInto(run, step, timeout);
    case "press": {
      if (secretNamesIn([step]).length > 0) throw new StepProblem("a press takes a key such as Enter, not a secret");
      const key = step.value as string;
      const target = step.selector ? shown(page.locator(step.selector)) : null;
      return followNavigation(page, timeout, () => (target ? target.press(key, { timeout }) : page.keyboard.press(key)));
    }
    case "wait":
      if (step.selector) return void (await shown(page.locator(step.selector)).waitFor({ state: "visible", timeout }));
      if ((step.ms ?? 0) > run.deadline - Date.now()) throw new StepProblem("the steps ran out of time during this wait");
      return void (await Bun.sleep(step.ms ?? 0));
    case "scroll":
      if (step.selector) return shown(page.locator(step.selector)).scrollIntoViewIfNeeded({ timeout });
      return void (await page.evaluate(() => window.scrollTo(0, (document.scrollingElement ?? document.documentElement).scrollHeight)));
    case "hide":
      return hide(page, step.selector as string);
    case "goto": {
      const to = gotoTarget(step.url as string, run.siteOrigin);
      if (!to || (to.protocol !== "http:" && to.protocol !== "https:")) throw new StepProblem("the goto url is not a web address");
      if (to.origin !== run.siteOrigin) throw new StepProblem(`a goto stays on the site (${run.siteOrigin})`);
      const response = await page.goto(to.href, { waitUntil: "domcontentloaded", timeout });
      if (response && response.status() >= 400) throw new StepProblem(`the page answered HTTP ${response.status()}`);
      return;
    }
  }
}

/** The first match on screen: a page often holds a hidden twin (the mobile menu's "Sign in", a template). */
const shown = (locator: Locator) => locator.filter({ visible: true }).first();

/**
 * A click's target: by selector (and its text, when both are given), or by its visible text: a
 * button or link of exactly that name first, then exactly that text, then a name or text holding it.
 * Decided by what is on screen now; when nothing is yet, the broadest is waited for.
 */
async function locate(page: Page, step: Step): Promise<Locator> {
  if (step.selector) return step.text ? page.locator(step.selector).filter({ hasText: step.text }) : page.locator(step.selector);
  const text = step.text as string;
  const candidates = [
    page.getByRole("button", { name: text, exact: true }).or(page.getByRole("link", { name: text, exact: true })),
    page.getByText(text, { exact: true }),
    page.getByRole("button", { name: text }).or(page.getByRole("link", { name: text })),
  ];
  for (const candidate of candidates) if ((await shown(candidate).count()) > 0) return candidate;
  return page.getByText(text);
}

const originOf = (url: string) => URL.parse(url)?.origin ?? "null";

/** Refuses to type a secret unless `url`'s origin is the site's. */
function onSite(url: string, where: string, siteOrigin: string): void {
  const origin = originOf(url);
  if (origin !== siteOrigin) {
    const at = origin === "null" ? "a document with no origin of its own" : origin;
    throw new StepProblem(`a secret is only typed into ${siteOrigin}, and ${where} is on ${at}`);
  }
}

/** fill and select: the value (secrets substituted) into the element, only on the site's origin when it holds a secret. */
async function typeInto(run: StepsRun, step: Step, timeout: number): Promise<void> {
  const { page } = run;
  const secret = secretNamesIn([step]).length > 0;
  let value: string;
  try {
    value = substitute(step.value as string, run.secrets);
  } catch (err) {
    if (err instanceof MissingSecret) throw new StepProblem(err.message);
    throw err;
  }
  if (secret) onSite(page.url(), "the page", run.siteOrigin);
  const target = shown(page.locator(step.selector as string));
  const handle = (await target.elementHandle({ timeout })) as ElementHandle<HTMLElement | SVGElement>;
  try {
    if (secret) {
      // The element's own document (a frame may be another site's) and, again, the page's.
      const frame: Frame | null = await handle.ownerFrame();
      onSite(frame?.url() ?? "", "the field's frame", run.siteOrigin);
      onSite(page.url(), "the page", run.siteOrigin);
      run.typedSecrets?.push(target);
    }
    if (step.type === "fill") await handle.fill(value, { timeout });
    else await handle.selectOption(value, { timeout });
  } finally {
    await handle.dispose().catch(() => {});
  }
}

/** Hides what the selector (a CSS list) matches, on this document and those the page goes to next. */
async function hide(page: Page, selector: string): Promise<void> {
  const valid = await page.evaluate((s) => {
    try {
      document.querySelector(s);
      return true;
    } catch {
      return false;
    }
  }, selector);
  if (!valid) throw new StepProblem(`"${clip(selector)}" is not a valid CSS selector`);
  const css = `${selector} { display: none !important; }`;
  // A constructed style sheet: a page's Content-Security-Policy refuses inline <style>, not these.
  const install = (text: string) => {
    const apply = () => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    };
    try {
      apply();
    } catch {
      // A document without adoptedStyleSheets support: nothing to hide with.
    }
  };
  await page.addInitScript(install, css);
  await page.evaluate(install, css);
}

/**
 * Runs a click or key press and, when it starts a navigation of the page, waits for the new
 * document's DOM: the next step (a check of the page's origin above all) then sees where it led.
 */
async function followNavigation(page: Page, timeout: number, act: () => Promise<unknown>): Promise<void> {
  let requested = false;
  let arrived!: () => void;
  const landed = new Promise<void>((resolve) => (arrived = resolve));
  const onRequest = (r: Request) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) requested = true;
  };
  const onFailed = (r: Request) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) arrived();
  };
  const onNavigated = (f: Frame) => {
    if (f === page.mainFrame()) arrived();
  };
  page.on("request", onRequest);
  page.on("requestfailed", onFailed);
  page.on("framenavigated", onNavigated);
  try {
    const started = Date.now();
    await act();
    const graceEnd = Date.now() + NAVIGATION_GRACE_MS;
    while (!requested && Date.now() < graceEnd) await Bun.sleep(20);
    if (!requested) return;
    const left = Math.max(1, timeout - (Date.now() - started));
    const gaveUp = Symbol();
    const outcome = await Promise.race([landed, Bun.sleep(left).then(() => gaveUp)]);
    if (outcome === gaveUp) return; // a download, a 204, a slow answer: the next step finds out
    await page.waitForLoadState("domcontentloaded", { timeout: left }).catch(() => {});
  } finally {
    page.off("request", onRequest);
    page.off("requestfailed", onFailed);
    page.off("framenavigated", onNavigated);
  }
}

const clip = (s: string, max = 80) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  // Playwright's first line, without its "locator.click: " prefix; its call log below can quote the page.
  return (text.split("\n")[0] ?? "").replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, "").trim() || "the step failed";
}

/** What the step's target is, in words. */
function targetOf(step: Step): string {
  if (step.selector && step.text) return `"${clip(step.selector)}" with the text "${clip(step.text)}"`;
  if (step.selector) return `"${clip(step.selector)}"`;
  return `the text "${clip(step.text ?? "")}"`;
}

/** A step's failure in words a user can act on. */
async function describe(page: Page, err: unknown, step: Step, left: number): Promise<string> {
  if (err instanceof StepProblem) return err.message;
  const message = messageOf(err);
  if (/is not a valid selector|Unexpected token|Unknown engine|SyntaxError/i.test(message) && step.selector) {
    return `"${clip(step.selector)}" is not a valid selector`;
  }
  if (err instanceof errors.TimeoutError) {
    const within = seconds(Math.min(STEP_TIMEOUT_MS, left));
    switch (step.type) {
      case "wait":
        return `${targetOf(step)} did not appear within ${within}`;
      case "goto":
        return `the page did not load within ${within}`;
      default: {
        // Whether anything matched tells a wrong selector from an element that is there but hidden, disabled or covered.
        const matches = step.type === "click" ? await locate(page, step).catch(() => null) : page.locator(step.selector ?? "html");
        const found = matches ? await matches.count().catch(() => 0) : 0;
        if (found === 0) return `nothing on the page matches ${targetOf(step)} (waited ${within})`;
        const action =
          step.type === "click" ? "clicked" : step.type === "select" ? "selected in" : step.type === "fill" ? "typed into" : "used";
        return `${targetOf(step)} is on the page but could not be ${action} within ${within} (hidden, disabled or covered)`;
      }
    }
  }
  return message;
}
