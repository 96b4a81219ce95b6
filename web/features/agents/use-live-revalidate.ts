// Pages with their own lists re-run their loader when a relevant live message arrives, at most
// every `minGapMs`, so a burst of messages is one reload.
import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { onLiveMessage, type LiveMessage, type LiveMessageType } from "#web/lib/live-socket";

export function useLiveRevalidate(
  types: readonly LiveMessageType[],
  accept: (m: LiveMessage) => boolean = () => true,
  minGapMs = 2000,
): void {
  const revalidator = useRevalidator();
  const state = useRef({ last: 0, timer: null as ReturnType<typeof setTimeout> | null });
  const accepted = useRef(accept);
  accepted.current = accept;
  const key = types.join(",");

  useEffect(() => {
    const s = state.current;
    const fire = () => {
      s.timer = null;
      s.last = Date.now();
      void revalidator.revalidate();
    };
    const offs = types.map((t) =>
      onLiveMessage(t, (m) => {
        if (!accepted.current(m) || s.timer) return;
        const wait = Math.max(0, s.last + minGapMs - Date.now());
        s.timer = setTimeout(fire, wait);
      }),
    );
    return () => {
      for (const off of offs) off();
      if (s.timer) clearTimeout(s.timer);
      s.timer = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, minGapMs]);
}
