// The capture's first two phases on their own, in real Chromium: opening a page (its context,
// watchers and navigation, under the capture's limit) and letting it settle while it is looked at.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CaptureStage } from "#server/modules/capture/capture";
import { CaptureError } from "#server/modules/capture/phases/capture-error";
import { captureLifetime, type OwnedLifetime } from "#server/modules/capture/phases/lifetime";
import { openPage, type OpenedPage } from "#server/modules/capture/phases/open";
import { lookWhileSettling, settlePage } from "#server/modules/capture/phases/settle";
import type { CaptureJob } from "#server/modules/capture/worker/protocol";
import { testCaptureJob } from "#tests/support/capture-job";
import { html, useHarness } from "../gatherers/harness";

setDefaultTimeout(60_000); // a page opened and settled on a busy machine, with room to spare

const h = useHarness({
  "/": html(`<header style="height:300px;background:#1d4ed8"><h1 id="title">Still</h1></header><p>Some text below.</p>`),
});
const dir = mkdtempSync(join(tmpdir(), "phases-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Opens `path` as a capture would, handing the opened page and what it reported to `use`; then releases it. */
async function withOpened(
  path: string,
  use: (opened: OpenedPage, ctx: { job: CaptureJob; lifetime: OwnedLifetime; stages: CaptureStage[] }) => Promise<void>,
) {
  const job = testCaptureJob(h.url(path), dir);
  const lifetime = captureLifetime(job);
  const stages: CaptureStage[] = [];
  try {
    const opened = await openPage(h.browser, job, (s) => stages.push(s), {}, lifetime);
    await use(opened, { job, lifetime, stages });
    await opened.filmstrip.stop();
    await opened.filmstrip.saved();
  } finally {
    await lifetime.release();
  }
}

describe("open", () => {
  test("opens the page in a context of its own and navigates to it, reporting only that", async () => {
    let page: OpenedPage["page"] | undefined;
    await withOpened("/", async (opened, { job, stages }) => {
      page = opened.page;
      expect(stages).toEqual(["navigating"]);
      expect(opened.page.url()).toBe(job.url);
      expect(opened.context.pages()).toEqual([opened.page]);
      expect(await opened.page.title()).toBe("Fixture");
      expect(await opened.measuredIn).toMatch(/^Chromium .*\d+\.\d+/);
    });
    // Released with the capture: the page's context is closed.
    expect(page?.isClosed()).toBe(true);
  });

  test("a page answering with an error status fails with that status", async () => {
    const job = testCaptureJob(h.url("/missing"), dir);
    const lifetime = captureLifetime(job);
    try {
      const opening = openPage(h.browser, job, () => {}, {}, lifetime);
      expect(opening).rejects.toThrow(new CaptureError("The site answered HTTP 404 Not Found"));
      await opening.catch(() => {});
    } finally {
      await lifetime.release();
    }
  });

  test("a capture already past its limit opens no context at all", async () => {
    const job = testCaptureJob(h.url("/"), dir);
    const lifetime = captureLifetime(job);
    const contexts = h.browser.contexts().length;
    lifetime.expire();
    expect(openPage(h.browser, job, () => {}, {}, lifetime)).rejects.toThrow("stopped");
    await lifetime.release();
    expect(h.browser.contexts()).toHaveLength(contexts);
  });
});

describe("settle", () => {
  test("the first pass reads the load's vitals and scrolls; a page that stays still is looked at once", async () => {
    await withOpened("/", async (opened, { job, lifetime, stages }) => {
      const settling = await settlePage(opened, job, (s) => stages.push(s), lifetime);
      expect(stages).toEqual(["navigating", "settling"]);
      expect(settling.vitals.fcpMs).toBeGreaterThan(0);
      expect(settling.reached).toBeGreaterThan(0);
      let looks = 0;
      expect(await lookWhileSettling(opened.page, settling, async () => ++looks)).toBe(1);
      expect(looks).toBe(1);
    });
  });

  test("a page that changed during the first look is looked at again, and the second look is what counts", async () => {
    await withOpened("/", async (opened, { job, lifetime }) => {
      const settling = await settlePage(opened, job, () => {}, lifetime);
      const titles: string[] = [];
      const seen = await lookWhileSettling(opened.page, settling, async () => {
        const title = await opened.page.evaluate(() => document.getElementById("title")!.textContent!);
        titles.push(title);
        // Something on the page moves while it is being looked at (a carousel, a late script).
        if (titles.length === 1) await opened.page.evaluate(() => (document.getElementById("title")!.textContent = "Moved"));
        return title;
      });
      expect(titles).toEqual(["Still", "Moved"]);
      expect(seen).toBe("Moved");
    });
  });
});
