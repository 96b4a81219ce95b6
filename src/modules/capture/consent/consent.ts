// Consent banners, handled before the capture looks at a page (docs/decisions/0018-consent-walls.md).
// The open phase installs @duckduckgo/autoconsent's content script in the page's context, where it
// runs from the first document on, beside the page's own load: it recognises the consent platform
// by its rules and, under `reject` or `accept`, answers its banner. The settle phase then waits —
// only as long as something is still happening — reads what the script reported, looks for a banner
// still on screen (one no rule knows, or one `keep` left) and masks it out of every measurement.

import type { Config, ContentScriptMessage } from "@duckduckgo/autoconsent";
import type { BrowserContext, Page } from "playwright-core";
import type { Box, ConsentPolicy, ConsentRecord } from "../model";
import { callPage } from "../page-script/page-script";
import { consentAssets } from "./assets";
import { CONSENT_WAITS, consentRecord, nextStep, noEvents, type ConsentEvents, type Step } from "./record";
import { rulesFor } from "./rules";

/** What the consent phase found and did on a page, and the regions it masked. */
export interface ConsentOutcome {
  record: ConsentRecord;
  masks: Box[];
}

export interface ConsentWatch {
  /** Waits (within `budgetMs`) for the rules to be done with the page, then looks for banners left and masks them. */
  settle(page: Page, budgetMs: number): Promise<ConsentOutcome>;
}

const POLL_MS = 50;
/** The content script (the package's Playwright build) sends through this global; our binding. */
const SEND = "autoconsentSendMessage";

const ACTION: Record<ConsentPolicy, Config["autoAction"]> = { reject: "optOut", accept: "optIn", keep: null };

/** The script's settings: the rules' own clicks only (no guessing at buttons), nothing hidden ahead of time, no logging into the page's console. */
function configFor(policy: ConsentPolicy): Config {
  return {
    enabled: true,
    autoAction: ACTION[policy],
    disabledCmps: [],
    // Hiding known banners before they paint would change what the load's filmstrip and vitals see.
    enablePrehide: false,
    enableCosmeticRules: true,
    enableGeneratedRules: true,
    detectRetries: 20,
    // The script runs in the page's own world (an init script): the rules' page-side checks run in place, no round trip.
    isMainWorld: true,
    prehideTimeout: 2000,
    // Its heuristic would click buttons by their words; a banner no rule knows is masked instead.
    enableHeuristicDetection: false,
    heuristicMode: "off",
    enablePopupMutationObserver: false,
    visualTest: false,
    performanceLoggingEnabled: false,
    heuristicPopupSearchTimeout: 100,
    logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false },
  };
}

/** After a look of the script's found nothing: the next waits for a change to the document at least this long after it ... */
const LOOK_GAP_MS = 100;
/** ... and at most this long (the script's own interval) without one: after its first look for a platform, and for a banner. */
const LOOK_RETRY_MS = 500;
/** How long the script keeps looking for a platform (its own 20 retries of 500 ms at the least). */
const LOOK_FOR_MS = 10_000;
/** A rule's fixed pause ends early once the document has been still this long (no change, no running animation). */
const QUIET_MS = 150;
/** The top document's handle for the settle: have the script look now, and say what its rules recognise. */
const LOOK_NOW = "__designIntelConsentLook";
/** The package's Playwright entry makes its one instance here; the init script takes hold of it. */
const ENTRY = /const consent = (new AutoConsent\(window\.autoconsentSendMessage, null, \{ autoconsent: \[\] \}\));/;

/**
 * How the script looks, in place of its own fixed beat: for a platform (findCmp) and, once one is
 * recognised, for its banner (waitForPopup), it looks again once the document has changed (100 ms
 * after its last look at the soonest) instead of every 500 ms, so a banner rendered just after a
 * look is seen within ~100 ms instead of ~500. It stops when it did before: 10 s of looking for a
 * platform (20 × 500 ms), its retries' worth (10 × 500 ms) for a banner. `LOOK_NOW` (top document)
 * has it look for a platform at once and answers with what its rules recognised: the settle's
 * verdict on a banner on screen, without waiting for the next look. What the rules check and do is
 * theirs, unchanged. Page-side code, kept as source text: the init script inlines it.
 */
const LOOKS = `(ac, top) => {
  // It starts at once rather than when the page is next idle (up to 500 ms on a busy page): it runs after the first paint already.
  ac.start = () => { ac._start(); };
  // A rule's fixed pause (OneTrust's 500 ms before it answers, others' 1 s after opening a panel) is
  // there to let the banner finish appearing; it ends as soon as the document has been still for
  // ${QUIET_MS} ms (no change to the document, no finite animation running), and never later than before.
  const running = () => document.getAnimations().some((a) => a.playState === "running" && a.effect && a.effect.getComputedTiming().endTime !== Infinity);
  ac.domActions.wait = (ms) => new Promise((resolve) => {
    let lastChange = performance.now();
    const observer = new MutationObserver(() => { lastChange = performance.now(); });
    observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true, characterData: true });
    const until = performance.now() + ms;
    const tick = () => {
      const t = performance.now();
      if (t >= until || (t - lastChange >= ${QUIET_MS} && !running())) { observer.disconnect(); resolve(true); }
      else setTimeout(tick, Math.min(50, until - t));
    };
    setTimeout(tick, Math.min(${QUIET_MS}, ms));
  });
  const findCmp = ac.findCmp.bind(ac);
  const names = (found) => found.map((c) => c.name);
  const asked = [];
  let release = null;
  let looking = true;
  // Resolves on a change to the document at least the gap after now, or after maxMs (or, while looking for a platform, on LOOK_NOW).
  const change = (maxMs, kickable) => new Promise((resolve) => {
    let changed = false;
    let gapPassed = false;
    const observer = new MutationObserver(() => { changed = true; if (gapPassed) go(); });
    const timers = [
      setTimeout(() => { gapPassed = true; if (changed) go(); }, ${LOOK_GAP_MS}),
      setTimeout(() => go(), Math.max(0, maxMs)),
    ];
    function go() { timers.forEach(clearTimeout); observer.disconnect(); if (kickable) release = null; resolve(); }
    if (kickable && asked.length > 0) return go();
    if (kickable) release = go;
    observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true, characterData: true });
  });
  ac.findCmp = async (retries) => {
    const until = Date.now() + ${LOOK_FOR_MS};
    for (let n = 1; ; n++) {
      const waiting = asked.splice(0);
      const found = await findCmp(0);
      waiting.forEach((answer) => answer(names(found)));
      if (found.length > 0 || retries <= 0 || Date.now() >= until) {
        looking = false;
        asked.splice(0).forEach((answer) => answer(names(found)));
        return found;
      }
      // After its second look the script only looks again once the document changes (its own rule too).
      await change(n < 2 ? Math.min(${LOOK_RETRY_MS}, until - Date.now()) : until - Date.now(), true);
    }
  };
  ac.waitForPopup = async (cmp, retries = 10, interval = ${LOOK_RETRY_MS}) => {
    const until = Date.now() + retries * interval;
    for (;;) {
      const open = await cmp.detectPopup().catch(() => false);
      if (open || Date.now() >= until) return open;
      await change(Math.min(interval, until - Date.now()), false);
    }
  };
  if (top) Object.defineProperty(window, "${LOOK_NOW}", {
    value: () => new Promise((answer) => {
      if (!looking) return findCmp(0).then((found) => answer(names(found)), () => answer([]));
      asked.push(answer);
      if (release) release();
    }),
  });
}`;

/**
 * The init script: the content script, preceded by a shim that answers its `init` in place with the
 * settings and the rules for the document (the top one's, or a frame's), and passes on to our
 * binding only the messages the capture reads. Answering through the binding instead costs a round
 * trip per document and, under load, holds DOMContentLoaded back by a second (bench/consent.bench.ts).
 * The script's instance is handed to LOOKS as it is made. All of it is parsed and run only once the
 * document has painted its first content (or loaded, if that comes first): the page's first paint,
 * which the capture's own load reports as a timing sample, does not wait for the script and its
 * ~120 KB of rules; the script starts at DOMContentLoaded anyway, and banners come after.
 */
async function initScript(policy: ConsentPolicy, url: string): Promise<string> {
  const [{ script }, main, frame] = await Promise.all([consentAssets(), rulesFor(url, true), rulesFor(url, false)]);
  if (!ENTRY.test(script)) throw new Error("@duckduckgo/autoconsent's Playwright entry has changed: see LOOKS in consent/consent.ts");
  const config = JSON.stringify(configFor(policy));
  return `(() => {
  const send = window.${SEND};
  if (typeof send !== "function") return;
  const top = window === window.top;
  const run = () => {
    const resp = { type: "initResp", config: ${config}, rules: { autoconsent: top ? ${JSON.stringify(main)} : ${JSON.stringify(frame)} } };
    const wanted = new Set(["cmpDetected", "popupFound", "optOutResult", "optInResult", "autoconsentDone"]);
    window.${SEND} = (m) => {
      if (m && m.type === "init") Promise.resolve().then(() => window.autoconsentReceiveMessage && window.autoconsentReceiveMessage(resp));
      else if (m && wanted.has(m.type)) return send(m);
      return Promise.resolve();
    };
    const looks = ${LOOKS};
    const adopt = (ac) => {
      looks(ac, top);
      return ac;
    };
${script.replace(ENTRY, "const consent = adopt($1);")}
  };
  let ran = false;
  const start = () => {
    if (!ran) {
      ran = true;
      run();
    }
  };
  try {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName("first-contentful-paint").length > 0) {
        observer.disconnect();
        start();
      }
    }).observe({ type: "paint", buffered: true });
  } catch {}
  addEventListener("load", start, { once: true });
})();`;
}

function record(events: ConsentEvents, msg: ContentScriptMessage, at: number): void {
  switch (msg.type) {
    case "cmpDetected":
      events.detected ??= { cmp: String(msg.cmp), at };
      break;
    case "popupFound":
      events.popup ??= { cmp: String(msg.cmp), at };
      break;
    case "optOutResult":
    case "optInResult":
      // A rule can run in steps (an intermediate one opens its settings first): the last answer counts.
      events.answer = { cmp: String(msg.cmp), ok: msg.result === true, at };
      break;
    case "autoconsentDone":
      events.done = { cmp: String(msg.cmp), cosmetic: msg.isCosmetic === true };
      break;
  }
}

/**
 * Installs the content script in every document of `context` (frames too: some platforms show their
 * banner in one) and starts listening. Call before the page is created; `url`: the page's, for the
 * rules written for particular sites.
 */
export async function watchConsent(
  context: BrowserContext,
  policy: ConsentPolicy,
  url: string,
  now: () => number = Date.now,
): Promise<ConsentWatch> {
  const events = noEvents();
  const script = await initScript(policy, url);
  await context.exposeBinding(SEND, (_source: unknown, msg: ContentScriptMessage) => {
    if (msg && typeof msg === "object" && typeof msg.type === "string") record(events, msg, now());
  });
  await context.addInitScript({ content: script });
  return {
    async settle(page, budgetMs) {
      const started = now();
      const deadline = started + budgetMs;
      // Once a rule has answered, a banner's closing transition is played to its end first (the
      // screenshot would anyway): one fading out is gone, not a banner on screen.
      const look = () =>
        callPage(page, "findConsentBanners", { finish: events.answer?.ok === true }).catch(() => [] as { box: Box; text: string }[]);
      // The page's own look for a banner, asked when the rules have recognised nothing: one seen has
      // the script look at once, and what its rules recognise there is waited for (nextStep).
      const last: { seen: { box: Box; text: string }[] | null } = { seen: null };
      const onScreen = async () => {
        const seen = (last.seen = await look());
        if (seen.length === 0) return false;
        events.sighted ??= now();
        const names = await page
          .evaluate((name) => (window as unknown as Record<string, () => Promise<string[]>>)[name]?.() ?? [], LOOK_NOW)
          .catch(() => [] as string[]);
        if (names[0]) events.detected ??= { cmp: names[0], at: now() };
        return true;
      };
      let step: Step;
      for (;;) {
        last.seen = null;
        step = await nextStep(policy, events, started, now(), onScreen);
        if (step !== "wait" || now() >= deadline) break;
        await Bun.sleep(POLL_MS);
      }
      // The page was looked at in the last step and nothing has acted on it since: that look is the final one.
      let banners = last.seen ?? (await look());
      // The rule answered: its banner may still be closing.
      if (step === "answered" && policy !== "keep" && events.answer?.ok) {
        const until = Math.min(deadline, now() + CONSENT_WAITS.gone);
        while (banners.length > 0 && now() < until) {
          await Bun.sleep(POLL_MS);
          banners = await look();
        }
      }
      return { record: consentRecord(policy, events, banners.length), masks: banners.map((b) => b.box) };
    },
  };
}
