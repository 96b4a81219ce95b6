import type { BetaSignupInput } from "#server/modules/waitlist/model";
import { api, call } from "#web/lib/api";

export type WaitlistSource = BetaSignupInput["source"];

export function joinBeta(email: string, source: WaitlistSource) {
  return call(api["beta-signups"].post({ email, source }));
}
