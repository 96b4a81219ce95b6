// A site's login runs once per run, and its session is reused for that site's pages (issue 33.6).
// A run makes one StepSessions and sends every capture through it. Pages of one site whose steps
// start with the same login (loginPrefixLength, compared as JSON) share it: the first capture runs
// the login and hands back the browser's session (cookies, localStorage) as the login left it; the
// others, waiting for it meanwhile, start from that session and skip the login's steps. A login
// that did not get through (the capture failed before its end) is tried again by the next page.
// The session lives in this object only, for the run: never stored, and never handed to the caller.
import type { CaptureJobInput, CaptureResult } from "../browser/pool";
import { loginPrefixLength, type SessionState } from "./model";

/** Hands a capture to the pool (a run's `RunTools.capture`, its owner and stage listener bound). */
export type SubmitCapture = (input: CaptureJobInput) => Promise<CaptureResult>;

export interface StepSessions {
  /** Captures `input` through `submit`, sharing its site's login with the run's other pages; the result carries no session. */
  capture(input: CaptureJobInput, submit: SubmitCapture): Promise<CaptureResult>;
}

/** What the caller gets: the result without the session. */
function withoutSession(result: CaptureResult): CaptureResult {
  if (!("session" in result)) return result;
  const { session: _, ...rest } = result;
  return rest;
}

export function createStepSessions(): StepSessions {
  /** By site and login: the session its first capture got, null when it got none; pending while that capture runs. */
  const logins = new Map<string, Promise<SessionState | null>>();
  return {
    async capture(input, submit) {
      const steps = input.steps ?? [];
      const skip = loginPrefixLength(steps);
      if (skip === 0) return submit(input);
      const key = JSON.stringify([input.siteOrigin ?? new URL(input.url).origin, steps.slice(0, skip)]);
      for (;;) {
        const pending = logins.get(key);
        if (pending) {
          const state = await pending;
          if (state) return withoutSession(await submit({ ...input, session: { state, skip } }));
          // That login got no session and is forgotten: the first page back here tries it next, the others wait for that.
          continue;
        }
        let settle!: (state: SessionState | null) => void;
        logins.set(key, new Promise((resolve) => (settle = resolve)));
        let state: SessionState | null = null;
        try {
          const result = await submit({ ...input, keepSession: true });
          state = "session" in result ? (result.session ?? null) : null;
          return withoutSession(result);
        } finally {
          if (!state) logins.delete(key);
          settle(state);
        }
      }
    },
  };
}
