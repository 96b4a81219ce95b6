import { useRef, useState } from "react";
import { toast } from "#web/components/ui/toast-store";
import { errorMessage } from "#web/lib/api";
import { type WaitlistSource, joinBeta } from "./api";

export const BETA_SUCCESS = {
  title: "Welcome to the Beta!",
  description: "You've been added to our exclusive beta waitlist. We'll notify you when access is available!",
} as const;
export const BETA_FAILURE_FALLBACK = "Unable to process signup. Please try again later.";

/**
 * One waitlist submission at a time for a given form. `submit` answers whether the visitor got
 * onto the list, so the caller can clear its field (or close its dialog) only then.
 */
export function useBetaSignup(source: WaitlistSource) {
  const [pending, setPending] = useState(false);
  // A ref as well as state: a double click lands before React re-renders the disabled button.
  const busy = useRef(false);

  async function submit(raw: string): Promise<boolean> {
    const email = raw.trim();
    if (!email || busy.current) return false;
    busy.current = true;
    setPending(true);
    try {
      await joinBeta(email, source);
      toast(BETA_SUCCESS);
      return true;
    } catch (err) {
      toast({ title: "Signup Failed", description: errorMessage(err, BETA_FAILURE_FALLBACK), variant: "destructive" });
      return false;
    } finally {
      busy.current = false;
      setPending(false);
    }
  }

  return { pending, submit };
}
