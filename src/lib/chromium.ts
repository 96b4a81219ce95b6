import { existsSync } from "node:fs";

/**
 * Chromium's headless-only build (Debian's `chromium-headless-shell`; what Playwright itself runs
 * for headless work): the same Blink, V8 and Skia as the desktop browser, without the desktop
 * browser around them. Measured on an app page load in the test browser, it spent about half the
 * CPU of the full browser (browser process 0.10-0.16 vs 0.40-0.65 CPU-s, renderer main thread
 * 0.22-0.56 vs 0.41-1.08 s): docs/decisions/0012-headless-shell.md.
 */
const HEADLESS_SHELLS = ["/usr/lib/chromium/chromium-headless-shell"];

/** The desktop browser's usual install paths. */
const FULL_BROWSERS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

/** CHROMIUM_PATH when set, else the headless shell, else the desktop browser; null when there is none. */
export function findChromium(fromEnv?: string): string | null {
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return [...HEADLESS_SHELLS, ...FULL_BROWSERS].find((p) => existsSync(p)) ?? null;
}

/**
 * The desktop browser only: a reference measured as a visitor's browser (Lighthouse's runs), or a
 * switch the headless shell does not honour (--unsafely-treat-insecure-origin-as-secure).
 */
export function findFullChromium(fromEnv?: string): string | null {
  if (fromEnv && !isHeadlessShell(fromEnv)) return existsSync(fromEnv) ? fromEnv : null;
  return FULL_BROWSERS.find((p) => existsSync(p)) ?? null;
}

export const isHeadlessShell = (path: string) => path.includes("headless-shell");

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
