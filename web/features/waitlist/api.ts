import type { BetaSignupAnswer, BetaSignupInput } from "../../../src/modules/waitlist/model";
import { api } from "../../lib/api";

export type WaitlistSource = BetaSignupInput["source"];

export function joinBeta(email: string, source: WaitlistSource): Promise<BetaSignupAnswer> {
  return api<BetaSignupAnswer>("/api/beta-signups", { method: "POST", body: { email, source } });
}
