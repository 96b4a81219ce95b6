// What autoconsent told us about a page, and what that makes of it: when the capture can stop
// waiting, and the record the snapshot carries. Pure, so the rules of it are tested without a browser.

import type { ConsentPolicy, ConsentRecord } from "../model";

/** What the content script reported, in every frame of the page, as it happened (ms on our clock). */
export interface ConsentEvents {
  /** A rule recognised its platform on the page (first time). */
  detected: { cmp: string; at: number } | null;
  /** The platform's banner is on screen (first time). */
  popup: { cmp: string; at: number } | null;
  /** The rule's answer: opted out (reject) or in (accept), and whether it worked. */
  answer: { cmp: string; ok: boolean; at: number } | null;
  /** The rule finished; cosmetic: it hid the banner with CSS rather than answer it. */
  done: { cmp: string; cosmetic: boolean } | null;
  /** When our own look first saw a banner no rule had recognised. */
  sighted: number | null;
}

export const noEvents = (): ConsentEvents => ({ detected: null, popup: null, answer: null, done: null, sighted: null });

/** How long each wait of the consent phase may last, in ms (each also within the capture's limit). */
export const CONSENT_WAITS = {
  /** A platform recognised without its banner on screen: its rule checks again every 500 ms. */
  popup: 700,
  /** From the banner found to the rule's answer: OneTrust's rule waits 500 ms before it clicks, its settings route seconds. */
  answer: 6_000,
  /** After the answer, for the banner to fade out. */
  gone: 1_000,
  /** The whole phase. */
  total: 8_000,
} as const;

export type Step = "wait" | "answered" | "settled";

/**
 * Whether the consent phase can stop waiting at `now` (`started`: when it began): "answered" once
 * the rule has acted on a banner (or was never going to: `keep`), "settled" when there is nothing
 * more worth waiting for, "wait" otherwise. `bannerOnScreen`: the page's own look (page-banners.ts)
 * sees a banner; asked once, only when the rules have found none, and it has the rules look at what
 * it saw (noting in `e` what they recognise).
 */
export async function nextStep(
  policy: ConsentPolicy,
  e: ConsentEvents,
  started: number,
  now: number,
  bannerOnScreen: () => Promise<boolean>,
): Promise<Step> {
  if (now - started >= CONSENT_WAITS.total) return "settled";
  if (e.popup) {
    if (policy === "keep" || e.answer) return "answered";
    return now - e.popup.at >= CONSENT_WAITS.answer ? "settled" : "wait";
  }
  if (e.detected && now - e.detected.at < CONSENT_WAITS.popup) return "wait";
  if (e.sighted !== null || e.detected) return "settled";
  // The page's look sees a banner no rule had recognised, and had the script look at it at once: one its rules recognise then is waited for.
  if (!(await bannerOnScreen())) return "settled";
  return e.detected ? "wait" : "settled";
}

const ACTED: Record<Exclude<ConsentPolicy, "keep">, "rejected" | "accepted"> = { reject: "rejected", accept: "accepted" };

/** The rule's name as the record names platforms. */
export const cmpName = (rule: string) => rule.toLowerCase();

/**
 * The snapshot's record. `bannersLeft`: banners the page's own look still sees at the end (they are masked).
 * A banner a rule recognised but could not answer, and one no rule recognised, are `unhandled`;
 * under `keep` every banner is `kept`, known or not.
 */
export function consentRecord(policy: ConsentPolicy, e: ConsentEvents, bannersLeft: number): ConsentRecord {
  if (e.popup) {
    const cmp = cmpName(e.popup.cmp);
    if (policy === "keep") return { found: true, cmp, action: "kept" };
    if (!e.answer?.ok) return { found: true, cmp, action: "unhandled" };
    return { found: true, cmp, action: ACTED[policy], ...(e.done?.cosmetic ? { hidden: true as const } : {}) };
  }
  if (bannersLeft > 0) return { found: true, cmp: null, action: policy === "keep" ? "kept" : "unhandled" };
  return { found: false };
}
