import type { SqlDb } from "#server/db/sql";
import { newId } from "#server/lib/ids";
import type { BetaSignupAnswer, BetaSignupInput } from "./model";
import { waitlistRepository } from "./repository";

export function waitlistService(db: SqlDb) {
  const repo = waitlistRepository(db);
  return {
    /** A repeated e-mail succeeds quietly: telling a visitor who else is on the list would leak it. */
    async join(input: BetaSignupInput): Promise<BetaSignupAnswer> {
      await repo.add(newId(), input.email.toLowerCase(), input.source);
      return { ok: true, message: "You're on the beta waitlist." };
    },
    count: repo.count,
  };
}
export type WaitlistService = ReturnType<typeof waitlistService>;
