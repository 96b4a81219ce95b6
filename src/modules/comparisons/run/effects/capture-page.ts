// Captures one page into a file and reports it as exactly one event: pageCaptured (the file is on
// disk, measured, and in the object store when there is one), pageFailed (with the reason the user
// will read) or pageTimedOut. Storing it as a snapshot is the transition's job, so a run that ended
// meanwhile never stores it.
import { isStorageError, isStorageMessage, STORAGE_UNAVAILABLE_MESSAGE, storageMessageOf } from "#server/http/storage-errors";
import { newId } from "#server/lib/ids";
import { fileSha256, pngSize } from "../../files";
import { secretNamesIn, type StepFailure } from "#server/modules/capture/model";
import { laneOf, type Capture, type PageKey, type RunContext, type RunPage } from "../context";
import type { CaptureJobInput, CaptureResult, StoredScreenshot } from "../tools";
import type { RunIO } from "../io";
import { earlierSamples } from "./earlier-samples";
import { Timeout, captureTimeoutMs, withTimeout, type Slots, type Turns } from "./timeout";

const STAGE_TEXT: Record<string, string> = {
  navigating: "opening the page",
  settling: "waiting for the page to settle",
  measuring: "measuring the design",
  screenshot: "taking the screenshot",
};

const reasonOf = (e: unknown) => (e instanceof Error && e.message ? e.message : "Capture failed");

/** Captures of one run handed to the pool at once, at most (a comparison of home pages only has up to 20). */
export const CAPTURES_IN_FLIGHT = 20;

export async function capturePage(run: RunContext, page: PageKey, inTurn: Turns, inSlot: Slots, io: RunIO): Promise<void> {
  const { tools, files, log } = io.deps;
  const target = run.targets[page.target]!;
  const lane = laneOf(run, page.lane);
  const sitePage = lane.pages[page.target]!;
  const { viewport, colorScheme } = lane;
  try {
    const snapshotId = newId();
    // Pages are made ready one at a time, in the run's order, so they reach the pool in that order
    // (desktop first) however fast the database answers each one's reads.
    const { path, earlier, steps } = await inTurn(async () => ({
      path: await files.prepare(run.ownerId, run.comparisonId, snapshotId),
      // Earlier samples are found by the target's URL: its home page's.
      earlier: sitePage.url === target.url ? await earlierSamples(io, run.ownerId, target.url, viewport) : [],
      steps: await stepsOf(sitePage, target.id, target.url, io),
    }));
    const job: CaptureJobInput = {
      url: sitePage.url,
      viewport,
      screenshotPath: path,
      earlierSamples: earlier,
      deferTiming: tools.time !== undefined,
      consent: run.consent,
      // Light is the browser's own default: a light capture's job is what it was before schemes.
      ...(colorScheme === "light" ? {} : { colorScheme }),
      ...steps,
    };
    const where = [sitePage.role === "home" ? null : sitePage.path, viewport, colorScheme === "light" ? null : colorScheme]
      .filter(Boolean)
      .join(" ");
    const submit = (input: CaptureJobInput) =>
      tools.capture!(run.ownerId, input, (stage) =>
        io.dispatch({ type: "stage", text: `${target.label} · ${where}: ${STAGE_TEXT[stage] ?? stage}` }),
      );
    const result = await inSlot(async (): Promise<CaptureResult | null> => {
      // Through the run's shared logins when it has them: a site's login runs once for its pages.
      const work = run.sessions && "steps" in steps ? run.sessions.capture(job, submit) : submit(job);
      try {
        return await withTimeout(work, captureTimeoutMs(tools), "The page took too long to capture");
      } catch (e) {
        if (!(e instanceof Timeout)) return { ok: false, reason: reasonOf(e) };
        // A capture that answers after we gave up must not leave its file (or its stored object) behind.
        void work.then((r) => leaveLate(r, io)).catch(() => {});
        return null;
      }
    });
    if (!result) return io.dispatch({ type: "pageTimedOut", page });
    const capture = await keepFile(result, path, snapshotId, earlier, io);
    io.dispatch("reason" in capture ? { type: "pageFailed", page, reason: capture.reason } : { type: "pageCaptured", page, capture });
  } catch (e) {
    log(`capture of ${target.id} (${page.lane}) failed`, e);
    io.dispatch({ type: "pageFailed", page, reason: isStorageError(e) ? storageMessageOf(e) : "Capture failed" });
  }
}

/**
 * What a page's steps need in its capture: the steps, the site's origin (a step never leaves it, nor
 * types a secret elsewhere) and the values of the secrets they name, read from the site's secrets
 * as the capture starts; nothing for a page without steps.
 */
export async function stepsOf(page: RunPage, targetId: string, siteUrl: string, io: RunIO) {
  if (page.steps.length === 0) return {};
  const names = secretNamesIn(page.steps);
  const secrets = names.length > 0 ? ((await io.deps.secretsOf?.(targetId, names)) ?? {}) : {};
  return { steps: [...page.steps], siteOrigin: new URL(siteUrl).origin, ...(names.length > 0 ? { secrets } : {}) };
}

/** The screenshot a capture wrote, checked and measured; or why there is none (and no file left behind). */
async function keepFile(
  result: CaptureResult,
  path: string,
  snapshotId: string,
  earlierSamples: Capture["earlierSamples"],
  io: RunIO,
): Promise<Capture | { reason: string }> {
  const { files, log } = io.deps;
  const stopped = stoppedAt(result);
  if (result.stored && (result.ok || stopped)) return adoptStored(result.stored, result, path, snapshotId, earlierSamples, io);
  if (!result.ok && !stopped) {
    // A capture that failed late may have written part of a file.
    await files.remove(path).catch(() => {});
    // A full or read-only disk is ours to fix, not the website's: say so instead of quoting ENOSPC.
    return { reason: isStorageMessage(result.reason) ? STORAGE_UNAVAILABLE_MESSAGE : result.reason || "Capture failed" };
  }
  const written = result.ok ? result.screenshotPath : stopped!.screenshotPath;
  let relPath: string;
  try {
    relPath = files.toStored(written);
  } catch (e) {
    log("capture wrote outside the screenshot root", e);
    return { reason: "Capture failed" };
  }
  const absolute = files.toAbsolute(relPath);
  const size = await pngSize(absolute);
  if (!size) {
    await files.remove(absolute).catch(() => {});
    return { reason: "The screenshot could not be saved" };
  }
  const hashed = await fileSha256(absolute).catch((e) => {
    log("could not read the screenshot back", e);
    return null;
  });
  if (!hashed) {
    await files.remove(absolute).catch(() => {});
    return { reason: "The screenshot could not be saved" };
  }
  const { sha256, bytes } = hashed;
  try {
    // An object store gets it now, before its row is written (the files store keeps it in place).
    await files.place(absolute, sha256);
  } catch (e) {
    log("could not store the screenshot", e);
    await files.remove(absolute).catch(() => {});
    return { reason: isStorageError(e) ? storageMessageOf(e) : "The screenshot could not be saved" };
  }
  if (!result.ok) return { snapshotId, relPath, absolute, ...size, sha256, bytes, extraction: null, step: stopped!.step };
  return { snapshotId, relPath, absolute, ...size, sha256, bytes, extraction: result.extraction, thumb: result.thumb, earlierSamples };
}

/**
 * A screenshot its worker stored under its content key: measured there, adopted as stored (pinned
 * until its row is written) and never copied here. Its key must be the one this path would get.
 */
async function adoptStored(
  stored: StoredScreenshot,
  result: CaptureResult,
  path: string,
  snapshotId: string,
  earlierSamples: Capture["earlierSamples"],
  io: RunIO,
): Promise<Capture | { reason: string }> {
  const { files, log } = io.deps;
  const { key, sha256, bytes, width, height } = stored;
  try {
    if (key !== files.storedFor(path, sha256)) throw new Error(`the worker stored ${key}, not this capture's key`);
    await files.adoptStored(key, sha256);
  } catch (e) {
    log("could not adopt the stored screenshot", e);
    return { reason: isStorageError(e) ? storageMessageOf(e) : "The screenshot could not be saved" };
  }
  const base = { snapshotId, relPath: key, absolute: path, width, height, sha256, bytes, stored: true };
  if (!result.ok) return { ...base, extraction: null, step: stoppedAt(result)!.step };
  return { ...base, extraction: result.extraction, thumb: result.thumb, earlierSamples };
}

/** What a capture that answered after its page timed out leaves: its file, or its stored object unless a snapshot names it. */
async function leaveLate(result: CaptureResult, io: RunIO): Promise<void> {
  const { files, repo } = io.deps;
  if (result.stored) await files.removeUnused(result.stored.key, repo.pathInUse);
  else if (result.ok) await files.remove(result.screenshotPath);
}

/** A capture whose steps stopped at one, with the screenshot of where (the capture's answer since steps); null otherwise. */
function stoppedAt(result: CaptureResult): { step: StepFailure; screenshotPath: string } | null {
  if (result.ok) return null;
  const { step, screenshotPath } = result as { step?: StepFailure; screenshotPath?: string | null };
  return step && screenshotPath ? { step, screenshotPath } : null;
}
