// Consent banners, handled before the capture looks at a page (docs/decisions/0020-consent-walls.md).
// The open phase installs @duckduckgo/autoconsent's content script in the page's context, where it
// runs from the first document on, beside the page's own load: it recognises the consent platform
// by its rules and, under `reject` or `accept`, answers its banner. The settle phase then waits —
// only as long as something is still happening — reads what the script reported, looks for a banner
// still on screen (one no rule knows, or one `keep` left) and masks it out of every measurement.

import type { AutoConsentCMPRule, Config, ContentScriptMessage } from "@duckduckgo/autoconsent";
import type { BrowserContext, Frame, Page } from "playwright-core";
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
/** The content script and the page exchange messages through these globals (the package's Playwright build). */
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

/** Answers the script in `frame` (which may have gone away meanwhile: then there is no one to answer). */
const reply = (frame: Frame, message: object) =>
  frame
    .evaluate(
      ([fn, m]) => (globalThis as unknown as Record<string, ((x: unknown) => unknown) | undefined>)[fn]?.(m),
      ["autoconsentReceiveMessage", message] as const,
    )
    .catch(() => {});

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
 * banner in one) and starts listening. Call before the page is created.
 */
export async function watchConsent(context: BrowserContext, policy: ConsentPolicy, now: () => number = Date.now): Promise<ConsentWatch> {
  const events = noEvents();
  const config = configFor(policy);
  const { script } = await consentAssets();
  await context.exposeBinding(SEND, async ({ frame }: { frame: Frame }, msg: ContentScriptMessage) => {
    if (!msg || typeof msg !== "object" || typeof msg.type !== "string") return;
    if (msg.type === "init") {
      const rules: AutoConsentCMPRule[] = await rulesFor(frame.url(), frame.parentFrame() === null);
      await reply(frame, { type: "initResp", config, rules: { autoconsent: rules } });
      return;
    }
    record(events, msg, now());
  });
  await context.addInitScript({ content: script });
  return {
    async settle(page, budgetMs) {
      const started = now();
      const deadline = started + budgetMs;
      const look = (mark: boolean) =>
        callPage(page, "findConsentBanners", { mark }).catch(() => [] as { box: Box; text: string }[]);
      let step = await nextStep(policy, events, started, now(), async () => (await look(false)).length > 0);
      while (step === "wait" && now() < deadline) {
        await Bun.sleep(POLL_MS);
        step = await nextStep(policy, events, started, now(), async () => (await look(false)).length > 0);
      }
      // The rule answered: the banner may still be fading out.
      if (step === "answered" && policy !== "keep" && events.answer?.ok) {
        const until = Math.min(deadline, now() + CONSENT_WAITS.gone);
        while (now() < until && (await look(false)).length > 0) await Bun.sleep(POLL_MS);
      }
      const left = await look(true);
      return { record: consentRecord(policy, events, left.length), masks: left.map((b) => b.box) };
    },
  };
}

