import { Button } from "@radix-ui/themes";
import { EnterFullScreenIcon, ExitFullScreenIcon } from "@radix-ui/react-icons";
import { useEffect } from "react";
import { useFocusMode } from "#web/lib/focus-mode";

/** Hides the rest of the shell while on; Escape or leaving the page turns it off. */
export function FocusToggle() {
  const on = useFocusMode((s) => s.on);
  const set = useFocusMode((s) => s.set);
  useEffect(() => () => useFocusMode.getState().set(false), []);
  useEffect(() => {
    if (!on) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) set(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [on, set]);
  return (
    <Button variant={on ? "solid" : "soft"} color="gray" aria-pressed={on} onClick={() => set(!on)} title={on ? "Show the sidebar and status bar again (Esc)" : "Hide the sidebar and status bar"}>
      {on ? <ExitFullScreenIcon /> : <EnterFullScreenIcon />} Focus
    </Button>
  );
}
