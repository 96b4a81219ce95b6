import { useEffect, useState } from "react";
import { getPublicMaintenance } from "./api";

const POLL_MS = 30_000;

/**
 * Whether the app is in maintenance, starting from what the server rendered and re-checked on
 * mount, every 30 s and when the tab regains focus, so people see the screen arrive and leave without reloading.
 */
export function useMaintenance(initial: boolean): boolean {
  const [on, setOn] = useState(initial);
  useEffect(() => {
    let alive = true;
    const check = () =>
      getPublicMaintenance()
        .then((m) => alive && setOn(m.enabled))
        .catch(() => {
          /* keep the last known state */
        });
    void check();
    const timer = setInterval(check, POLL_MS);
    const onFocus = () => void check();
    window.addEventListener("focus", onFocus);
    return () => {
      alive = false;
      clearInterval(timer);
      window.removeEventListener("focus", onFocus);
    };
  }, []);
  return on;
}
