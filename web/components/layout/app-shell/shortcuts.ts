import { useEffect, useState } from "react";
import { navPathForShortcut } from "./nav-items";

/** Typing places: a digit pressed there is text, not a jump. */
export function isEditableTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== "function") return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  // happy-dom and some browsers leave isContentEditable unset on descendants of an editable host.
  if (el.closest('[contenteditable=""],[contenteditable="true"],[contenteditable="plaintext-only"]')) return true;
  return el.closest('input,textarea,select,[role="textbox"],[role="combobox"],[role="searchbox"]') !== null;
}

/**
 * The page a plain digit press should open, or null: never while typing, never with a modifier
 * (Ctrl+1 and friends belong to the browser), never from inside an open dialog.
 */
export function shortcutPath(
  e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey" | "target" | "defaultPrevented" | "isComposing">,
): string | null {
  if (e.defaultPrevented || e.isComposing) return null;
  if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return null;
  if (isEditableTarget(e.target)) return null;
  const target = e.target as Element | null;
  if (target && typeof target.closest === "function" && target.closest('[role="dialog"],[role="alertdialog"]')) return null;
  return navPathForShortcut(e.key);
}

/** Listens on the window for the 1-5 jumps while the shell is mounted. */
export function useNavShortcuts(navigate: (path: string) => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const path = shortcutPath(e);
      if (!path) return;
      e.preventDefault();
      navigate(path);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [navigate]);
}

/** "Ctrl K", or "⌘ K" on Apple devices; decided after mount so the server's HTML matches the first render. */
export function usePaletteHint(): string {
  const [hint, setHint] = useState("Ctrl K");
  useEffect(() => {
    if (/Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)) setHint("⌘ K");
  }, []);
  return hint;
}
