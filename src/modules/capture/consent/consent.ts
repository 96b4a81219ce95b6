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
/** The script's states after which it looks for no platform any more. */
const STOPPED = new Set(["nothingDetected", "done", "optOutSucceeded", "optOutFailed", "optInSucceeded", "optInFailed"]);

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

/**
 * The init script: the content script, preceded by a shim that answers its `init` in place with the
 * settings and the rules for the document (the top one's, or a frame's), and passes on to our
 * binding only the messages the capture reads. Answering through the binding instead costs a round
 * trip per document and, under load, holds DOMContentLoaded back by a second (bench/consent.bench.ts).
 */
async function initScript(policy: ConsentPolicy, url: string): Promise<string> {
  const [{ script }, main, frame] = await Promise.all([consentAssets(), rulesFor(url, true), rulesFor(url, false)]);
  const config = JSON.stringify(configFor(policy));
  return `(() => {
  const send = window.${SEND};
  if (typeof send !== "function") return;
  const resp = { type: "initResp", config: ${config}, rules: { autoconsent: window === window.top ? ${JSON.stringify(main)} : ${JSON.stringify(frame)} } };
  const wanted = new Set(["cmpDetected", "popupFound", "optOutResult", "optInResult", "autoconsentDone"]);
  let last = "";
  window.${SEND} = (m) => {
    if (m && m.type === "init") Promise.resolve().then(() => window.autoconsentReceiveMessage && window.autoconsentReceiveMessage(resp));
    else if (m && wanted.has(m.type)) return send(m);
    else if (m && m.type === "report" && m.mainFrame) {
      // Of its state reports, only when it looks for a platform and when it stops.
      const state = { lifecycle: m.state.lifecycle, findCmpAttempts: m.state.findCmpAttempts };
      const key = state.lifecycle + "|" + state.findCmpAttempts;
      if (key !== last) {
        last = key;
        return send({ type: "report", mainFrame: true, state });
      }
    }
    return Promise.resolve();
  };
})();
${script}`;
}

function record(events: ConsentEvents, msg: ContentScriptMessage, at: number): void {
  switch (msg.type) {
    case "report": {
      // A new look (its count went up) starts now; a state change within one only says whether another will come.
      const attempts = Number(msg.state?.findCmpAttempts) || 0;
      const again = !STOPPED.has(String(msg.state?.lifecycle));
      events.looked = events.looked?.attempts === attempts ? { ...events.looked, again } : { at, attempts, again };
      break;
    }
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
      // A banner no rule has recognised: seen once, it is taken to stay while the rules look at it
      // again (one look of ours, not one a poll); the page is changed and back, so a script waiting
      // for a change before it looks again looks at once.
      const onScreen = async () => {
        const found = await callPage(page, "findConsentBanners", { nudge: true }).catch(() => []);
        if (found.length > 0) events.sighted ??= now();
        return found.length > 0;
      };
      let step: Step;
      for (;;) {
        step = await nextStep(policy, events, started, now(), onScreen);
        if (step !== "wait" || now() >= deadline) break;
        await Bun.sleep(POLL_MS);
      }
      let banners = await look();
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
