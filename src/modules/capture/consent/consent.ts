// Consent banners, handled before the capture looks at a page (docs/decisions/0015-consent-walls.md).
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
import { CONSENT_WAITS, consentRecord, nextStep, noEvents, type ConsentEvents } from "./record";
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
/** Where the init script keeps a way to start the content script again in the top document. */
const RESTART = "__designIntelConsentRestart";

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
  window.${SEND} = (m) => {
    if (m && m.type === "init") Promise.resolve().then(() => window.autoconsentReceiveMessage && window.autoconsentReceiveMessage(resp));
    else if (m && wanted.has(m.type)) return send(m);
    return Promise.resolve();
  };
  // Kept, so the capture can start a new instance without compiling the script again (lookAgain).
  const start = () => {
${script}
  };
  Object.defineProperty(window, "${RESTART}", { value: () => { delete window.autoconsentReceiveMessage; start(); } });
  start();
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
 * Runs the rules once more on the top document as it stands: a new instance of the content script,
 * whose first look is at once (the one from the page's start looks again only every half second,
 * and after its second look only when the document changes).
 */
const lookAgain = (page: Page) =>
  page.evaluate((restart) => (window as unknown as Record<string, (() => void) | undefined>)[restart]?.(), RESTART).catch(() => {});

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
      // Marks what it finds each time: the last look's banners are the ones the gatherers leave out.
      // Once a rule has answered, a banner's closing transition is played to its end first (the
      // screenshot would anyway): one fading out is gone, not a banner on screen.
      const look = () =>
        callPage(page, "findConsentBanners", { mark: true, finish: events.answer?.ok === true }).catch(
          () => [] as { box: Box; text: string }[],
        );
      let left: { box: Box }[] | null = null;
      const onScreen = async () => (left = await look()).length > 0;
      for (;;) {
        left = null;
        const step = await nextStep(policy, events, started, now(), onScreen);
        if (step === "answered" || step === "settled" || now() >= deadline) {
          // The rule answered: the banner may still be fading out.
          if (step === "answered" && policy !== "keep" && events.answer?.ok) {
            const until = Math.min(deadline, now() + CONSENT_WAITS.gone);
            while ((await onScreen()) && now() < until) await Bun.sleep(POLL_MS);
          }
          break;
        }
        if (step === "lookAgain") {
          await lookAgain(page);
          events.lookedAgainAt = now();
        }
        await Bun.sleep(POLL_MS);
      }
      const banners: { box: Box }[] = left ?? (await look());
      return { record: consentRecord(policy, events, banners.length), masks: banners.map((b) => b.box) };
    },
  };
}
