// What the consent phase makes of autoconsent's messages: when it stops waiting, and the record
// each snapshot carries. Pure: no browser.
import { describe, expect, test } from "bun:test";
import { CONSENT_WAITS, consentRecord, nextStep, noEvents, type ConsentEvents } from "#server/modules/capture/consent/record";

const events = (over: Partial<ConsentEvents>): ConsentEvents => ({ ...noEvents(), ...over });
const banner = (on: boolean) => async () => on;
const never = async (): Promise<boolean> => {
  throw new Error("the page was looked at though the rules had answered");
};

describe("consent record", () => {
  test("no banner: found false, whatever the policy", () => {
    for (const policy of ["reject", "accept", "keep"] as const) expect(consentRecord(policy, noEvents(), 0)).toEqual({ found: false });
  });

  test("a platform's banner answered: rejected or accepted, named by its rule in lower case", () => {
    const e = events({ popup: { cmp: "Onetrust", at: 0 }, answer: { cmp: "Onetrust", ok: true, at: 600 } });
    expect(consentRecord("reject", e, 0)).toEqual({ found: true, cmp: "onetrust", action: "rejected" });
    expect(consentRecord("accept", e, 0)).toEqual({ found: true, cmp: "onetrust", action: "accepted" });
  });

  test("a banner a rule hid with CSS says so", () => {
    const e = events({
      popup: { cmp: "nba.com", at: 0 },
      answer: { cmp: "nba.com", ok: true, at: 10 },
      done: { cmp: "nba.com", cosmetic: true },
    });
    expect(consentRecord("reject", e, 0)).toEqual({ found: true, cmp: "nba.com", action: "rejected", hidden: true });
  });

  test("keep: every banner is kept, known or not", () => {
    expect(consentRecord("keep", events({ popup: { cmp: "Cybotcookiebot", at: 0 } }), 1)).toEqual({
      found: true,
      cmp: "cybotcookiebot",
      action: "kept",
    });
    expect(consentRecord("keep", noEvents(), 1)).toEqual({ found: true, cmp: null, action: "kept" });
  });

  test("a rule that failed or never answered, and a banner no rule knows, are unhandled", () => {
    const failed = events({ popup: { cmp: "Onetrust", at: 0 }, answer: { cmp: "Onetrust", ok: false, at: 5 } });
    expect(consentRecord("reject", failed, 1)).toEqual({ found: true, cmp: "onetrust", action: "unhandled" });
    expect(consentRecord("accept", events({ popup: { cmp: "Onetrust", at: 0 } }), 1)).toEqual({
      found: true,
      cmp: "onetrust",
      action: "unhandled",
    });
    expect(consentRecord("reject", noEvents(), 2)).toEqual({ found: true, cmp: null, action: "unhandled" });
  });
});

describe("consent waits", () => {
  test("nothing found by the rules and nothing on screen: no wait at all", async () => {
    expect(await nextStep("reject", noEvents(), 0, 0, banner(false))).toBe("settled");
  });

  test("a banner on screen no rule has recognised: the rules' next look decides, then it is left to the mask", async () => {
    // Seen at 300; the script's last look began before.
    const seen = events({ looked: { at: 100, attempts: 2, again: true }, sighted: 300 });
    expect(await nextStep("reject", seen, 0, 300, never)).toBe("wait");
    expect(await nextStep("reject", seen, 0, 300 + CONSENT_WAITS.nextLook, never)).toBe("settled");
    // It looked again after the banner was seen: its rules' verdict is waited for a moment.
    const lookedAgain = events({ looked: { at: 350, attempts: 3, again: true }, sighted: 300 });
    expect(await nextStep("reject", lookedAgain, 0, 350 + CONSENT_WAITS.verdict - 1, never)).toBe("wait");
    expect(await nextStep("reject", lookedAgain, 0, 350 + CONSENT_WAITS.verdict, never)).toBe("settled");
    // The script has stopped looking, or never started: nothing to wait for.
    expect(await nextStep("reject", events({ looked: { at: 100, attempts: 20, again: false } }), 0, 150, banner(true))).toBe("settled");
    expect(await nextStep("reject", noEvents(), 0, 150, banner(true))).toBe("settled");
    // Recognised on its next look: its banner is waited for as any.
    const recognised = events({ looked: { at: 350, attempts: 3, again: true }, sighted: 300, detected: { cmp: "Onetrust", at: 360 } });
    expect(await nextStep("reject", recognised, 0, 400, never)).toBe("wait");
  });

  test("a platform recognised: its banner is waited for a while, then the page is looked at", async () => {
    const e = events({ detected: { cmp: "Onetrust", at: 1000 } });
    expect(await nextStep("reject", e, 0, 1000 + CONSENT_WAITS.popup - 1, never)).toBe("wait");
    expect(await nextStep("reject", e, 0, 1000 + CONSENT_WAITS.popup, banner(false))).toBe("settled");
  });

  test("a banner found: keep stops there, reject and accept wait for the rule's answer (bounded)", async () => {
    const e = events({ detected: { cmp: "Onetrust", at: 0 }, popup: { cmp: "Onetrust", at: 100 } });
    expect(await nextStep("keep", e, 0, 100, never)).toBe("answered");
    expect(await nextStep("reject", e, 0, 700, never)).toBe("wait");
    expect(await nextStep("reject", e, 0, 100 + CONSENT_WAITS.answer, never)).toBe("settled");
    const answered = { ...e, answer: { cmp: "Onetrust", ok: true, at: 650 } };
    expect(await nextStep("accept", answered, 0, 700, never)).toBe("answered");
  });

  test("the whole phase is bounded", async () => {
    const e = events({ popup: { cmp: "Onetrust", at: 0 } });
    expect(await nextStep("reject", e, 0, CONSENT_WAITS.total, never)).toBe("settled");
  });
});
