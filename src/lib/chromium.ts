import { existsSync } from "node:fs";

const CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

/** CHROMIUM_PATH when set, else the first usual install path that exists; null when there is none. */
export function findChromium(fromEnv?: string): string | null {
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/**
 * Flags for a headless browser in a container: no sandbox as root, and none of Chromium's own
 * background traffic (updates, sync, safe browsing) leaving the machine.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--metrics-recording-only",
  "--mute-audio",
  // Chromium measures an on-device AI model's "performance class" 3 minutes after every launch with
  // a fresh profile (so every Playwright launch), in a helper process that then stays for the
  // browser's life. Presetting the class skips the measurement; capture never needs the model.
  // (--disable-features can't do it here: only the last such switch counts, and ours would
  // replace Playwright's own list.)
  "--optimization-guide-performance-class=1",
];
