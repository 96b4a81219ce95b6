// The files of the visual baseline: one screenshot per page and viewport, with a note of where it
// came from and what was masked. The baseline directory is meant to be committed; the results
// directory holds the last check's captures (what `approve` promotes) and its diff images.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { boxSchema, viewportSchema, type Box, type Viewport } from "#server/modules/capture/model";

export const DEFAULT_BASELINE_DIR = ".design-intel/baseline";
export const DEFAULT_RESULTS_DIR = ".design-intel/results";

const noteSchema = z.object({
  url: z.string(),
  label: z.string(),
  viewport: viewportSchema,
  capturedAt: z.string(),
  /** Boxes masked on this capture: ignore regions, and where the ignore selectors matched (with the selector). */
  masked: z.array(boxSchema.extend({ selector: z.string().optional() })),
});
export type CaptureNote = z.infer<typeof noteSchema>;

/** "Our Site" → "our-site": file names that survive every file system and a code review. */
const slug = (label: string) =>
  label
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "page";

export function captureFiles(dir: string, label: string, viewport: Viewport) {
  const stem = join(dir, `${slug(label)}.${viewport}`);
  return { png: `${stem}.png`, note: `${stem}.json`, diff: `${stem}.diff.png` };
}

/** Written beside and renamed in place: a reader (or a crash) never sees half a file. */
export function writeFileAtomically(path: string, data: Uint8Array | string) {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

export function writeCapture(dir: string, note: CaptureNote, png: Uint8Array) {
  mkdirSync(dir, { recursive: true });
  const files = captureFiles(dir, note.label, note.viewport);
  writeFileAtomically(files.png, png);
  writeFileAtomically(files.note, JSON.stringify(note, null, 2) + "\n");
  return files;
}

/** The capture stored in `dir` for this page and viewport, or null when there is none. */
export function readCapture(
  dir: string,
  label: string,
  viewport: Viewport,
): { png: Uint8Array; note: CaptureNote | null; path: string } | null {
  const files = captureFiles(dir, label, viewport);
  if (!existsSync(files.png)) return null;
  let note: CaptureNote | null = null;
  try {
    note = noteSchema.parse(JSON.parse(readFileSync(files.note, "utf8")));
  } catch {
    // A baseline committed without its note (or an edited one) still counts; only its masks are lost.
  }
  return { png: new Uint8Array(readFileSync(files.png)), note, path: files.png };
}

/**
 * Where the config's ignore selectors matched when the baseline was taken: an ignored element that
 * moved is masked where it was as well as where it is. Only selectors the config still names count.
 */
export const baselineSelectorBoxes = (note: CaptureNote | null, selectors: string[]): Box[] =>
  (note?.masked ?? [])
    .filter((m) => m.selector !== undefined && selectors.includes(m.selector))
    .map(({ x, y, width, height }) => ({ x, y, width, height }));
