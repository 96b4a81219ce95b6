import type { Db } from "#server/db/connection";
import { newId } from "#server/lib/ids";
import type { BetaSignupAnswer, BetaSignupInput } from "./model";
import { waitlistRepository } from "./repository";

export function waitlistService(db: Db) {
  const repo = waitlistRepository(db);
  return {
    /** A repeated e-mail succeeds quietly: telling a visitor who else is on the list would leak it. */
    join(input: BetaSignupInput): BetaSignupAnswer {
      repo.add(newId(), input.email.toLowerCase(), input.source);
      return { ok: true, message: "You're on the beta waitlist." };
    },
    count: repo.count,
  };
}
export type WaitlistService = ReturnType<typeof waitlistService>;
