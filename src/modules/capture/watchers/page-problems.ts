// What went wrong while a page loaded, as the browser saw it: requests that failed or were answered
// with an error status, console errors and uncaught exceptions. Read from Playwright's page events
// (they cover every frame), bounded so a page stuck in an error loop cannot bloat the extraction.

import type { ConsoleMessage, Page, Request, Response } from "playwright-core";
import type { Extraction } from "../model";

export type FailedRequest = NonNullable<Extraction["network"]>["failed"][number];
export type ConsoleEntry = NonNullable<Extraction["console"]>[number];

/** At most this many failed requests and console entries are kept (the count keeps going). */
export const MAX_FAILED = 50;
export const MAX_CONSOLE = 30;
export const MAX_URL = 300;
export const MAX_TEXT = 300;

/** What a page-problem watcher needs from a Playwright Page. */
type PageEvents = Pick<Page, "on" | "off" | "mainFrame">;

export interface PageProblems {
  /** The failures seen so far; the watcher keeps listening until `stop`. */
  read(): { network: NonNullable<Extraction["network"]>; console: ConsoleEntry[] };
  stop(): void;
}

const cap = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Chromium's own "Failed to load resource" console line repeats a failed request; the request is the better record. */
const RESOURCE_ERROR = /^Failed to load resource\b/;

export function watchPageProblems(page: PageEvents): PageProblems {
  const failed: FailedRequest[] = [];
  const consoleEntries: ConsoleEntry[] = [];
  const seenRequests = new Set<Request>();
  const seenConsole = new Set<string>();
  let failedCount = 0;

  const isMainFrame = (request: Request) => {
    try {
      return request.frame() === page.mainFrame();
    } catch {
      return false; // a service worker's request has no frame
    }
  };
  const addFailure = (request: Request, reason: string) => {
    if (seenRequests.has(request)) return;
    seenRequests.add(request);
    const url = request.url();
    if (!/^https?:/i.test(url)) return;
    // The page's own document failing is the capture's failure, reported as such elsewhere.
    if (request.isNavigationRequest() && isMainFrame(request)) return;
    failedCount++;
    if (failed.length < MAX_FAILED) failed.push({ url: cap(url, MAX_URL), type: request.resourceType(), reason: cap(reason, 120) });
  };
  const onFailed = (request: Request) => {
    const text = request.failure()?.errorText ?? "failed";
    // A media element cancelling its own range request, or a navigation replaced by another, is not a failure a visitor sees.
    if (/ERR_ABORTED/.test(text) && (request.resourceType() === "media" || request.isNavigationRequest())) return;
    addFailure(request, text.replace(/^net::/, ""));
  };
  const onResponse = (response: Response) => {
    const status = response.status();
    if (status < 400) return;
    addFailure(response.request(), `HTTP ${status}${response.statusText() ? ` ${response.statusText()}` : ""}`);
  };
  const addConsole = (level: ConsoleEntry["level"], text: string) => {
    const entry = { level, text: cap(text.trim(), MAX_TEXT) };
    const key = `${entry.level}|${entry.text}`;
    if (seenConsole.has(key) || consoleEntries.length >= MAX_CONSOLE) return;
    seenConsole.add(key);
    consoleEntries.push(entry);
  };
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() !== "error") return;
    const text = message.text();
    if (RESOURCE_ERROR.test(text)) return;
    addConsole("error", text);
  };
  const onPageError = (error: Error) =>
    addConsole("exception", `${error.name && error.name !== "Error" ? `${error.name}: ` : ""}${error.message}`);

  page.on("requestfailed", onFailed);
  page.on("response", onResponse);
  page.on("console", onConsole);
  page.on("pageerror", onPageError);
  return {
    read: () => ({ network: { failed: [...failed], failedCount }, console: [...consoleEntries] }),
    stop() {
      page.off("requestfailed", onFailed);
      page.off("response", onResponse);
      page.off("console", onConsole);
      page.off("pageerror", onPageError);
    },
  };
}
