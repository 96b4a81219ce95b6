import { useCallback, useEffect, useRef, useState } from "react";
import type { OngoingAlerts } from "#server/modules/admin/model";
import { getOngoingAlerts } from "./api";
import { ADMIN_REFRESH_MS, type LiveSubscribe } from "./use-admin-console";

/** An answer with the client time it arrived: durations count on from there (no server clock needed). */
export interface OngoingState {
  answer: OngoingAlerts;
  receivedAt: number;
}

/**
 * The open host alerts. Re-read on the console's 30 s rhythm, on each ALERT (one opened) and, while
 * any is open, on each SYSTEM_METRICS sample, which is when the server may have ended one.
 */
export function useOngoingAlerts(initial: OngoingAlerts | null, subscribe?: LiveSubscribe, now: () => number = Date.now) {
  const [state, setState] = useState<OngoingState | null>(() => (initial ? { answer: initial, receivedAt: now() } : null));
  const open = (state?.answer.ongoing.length ?? 0) > 0;
  const openRef = useRef(open);
  openRef.current = open;
  const inFlight = useRef(false);
  const mounted = useRef(true);

  const reload = useCallback(() => {
    if (inFlight.current) return;
    inFlight.current = true;
    getOngoingAlerts()
      .then((answer) => mounted.current && setState({ answer, receivedAt: now() }))
      .catch(() => {})
      .finally(() => {
        inFlight.current = false;
      });
  }, [now]);

  useEffect(() => {
    mounted.current = true;
    if (!initial) reload();
    const timer = setInterval(reload, ADMIN_REFRESH_MS);
    return () => {
      mounted.current = false;
      clearInterval(timer);
    };
  }, [initial, reload]);

  useEffect(() => {
    if (!subscribe) return;
    return subscribe((message) => {
      if (message.type === "ALERT" || (message.type === "SYSTEM_METRICS" && openRef.current)) reload();
    });
  }, [subscribe, reload]);

  return state;
}
