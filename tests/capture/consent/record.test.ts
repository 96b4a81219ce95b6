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

  test("a banner on screen no rule has recognised: the rules look at it at once, and it is left to the mask", async () => {
    // The page's look sees it and has the script look: nothing recognised, nothing to wait for.
    const e = noEvents();
    const unknown = async () => {
      e.sighted = 300;
      return true;
    };
    expect(await nextStep("reject", e, 0, 300, unknown)).toBe("settled");
    // Seen once: not looked for again.
    expect(await nextStep("reject", e, 0, 350, never)).toBe("settled");
    // Recognised on that look: its banner is waited for as any.
    const r = noEvents();
    const recognised = async () => {
      r.sighted = 300;
      r.detected = { cmp: "Onetrust", at: 310 };
      return true;
    };
    expect(await nextStep("reject", r, 0, 300, recognised)).toBe("wait");
    expect(await nextStep("reject", r, 0, 400, never)).toBe("wait");
    expect(await nextStep("reject", r, 0, 310 + CONSENT_WAITS.popup, never)).toBe("settled");
  });

  test("a platform recognised: its banner is waited for a while, then the page is looked at", async () => {
    const e = events({ detected: { cmp: "Onetrust", at: 1000 } });
    expect(await nextStep("reject", e, 0, 1000 + CONSENT_WAITS.popup - 1, never)).toBe("wait");
    expect(await nextStep("reject", e, 0, 1000 + CONSENT_WAITS.popup, never)).toBe("settled");
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
