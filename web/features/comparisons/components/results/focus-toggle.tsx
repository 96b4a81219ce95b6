import { Button } from "@radix-ui/themes";
import { EnterFullScreenIcon, ExitFullScreenIcon } from "@radix-ui/react-icons";
import { useEffect } from "react";
import { useShellFocus } from "#web/lib/shell-focus";

/** Mirrored on <html data-focus="on"> so the shell's parts hide through CSS (results.css) too. */
export const FOCUS_ATTRIBUTE = "data-focus";

/** Hides the rest of the shell while on; Escape or leaving the page turns it off. */
export function FocusToggle() {
  const on = useShellFocus((s) => s.focus);
  const setFocus = useShellFocus((s) => s.setFocus);
  useEffect(() => () => useShellFocus.getState().setFocus(false), []);
  useEffect(() => {
    if (!on) return;
    document.documentElement.setAttribute(FOCUS_ATTRIBUTE, "on");
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) setFocus(false);
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.documentElement.removeAttribute(FOCUS_ATTRIBUTE);
    };
  }, [on, setFocus]);
  return (
    <Button
      variant={on ? "solid" : "soft"}
      color="gray"
      aria-pressed={on}
      onClick={() => setFocus(!on)}
      title={on ? "Show the sidebar and status bar again (Esc)" : "Hide the sidebar and status bar"}
    >
      {on ? <ExitFullScreenIcon /> : <EnterFullScreenIcon />} Focus
    </Button>
  );
}
