import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "../../src/lib/chromium";

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium(process.env.CHROMIUM_PATH);
  if (!executablePath) throw new Error("No Chromium found: install Debian's chromium or set CHROMIUM_PATH");
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}
