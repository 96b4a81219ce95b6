// Serves the filmstrips the capture worker recorded beside each screenshot (capture/filmstrip/filmstrip.ts).
// Paths come only from stored rows and server-made ids, checked to stay under the screenshot root.
import { readdir, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Db } from "#server/db/connection";
import { notFound } from "#server/http/errors";
import { filmstripDirFor, filmstripManifestSchema, MANIFEST_FILE, type FilmstripManifest } from "#server/modules/capture/public";
import { screenshotFiles } from "#server/modules/comparisons/public";
import type { FilmstripDto } from "./model";
import { filmstripRepository } from "./repository";

/** A recording whose snapshot never got stored (failed or cancelled capture) is removed after this. */
const ORPHAN_AFTER_MS = 60 * 60_000;
const SAFE_ID = /^[A-Za-z0-9_-]+$/;

export function filmstripService(deps: { db: Db; dataDir: string; now?: () => number; log?: (msg: string, err?: unknown) => void }) {
  const repo = filmstripRepository(deps.db);
  const files = screenshotFiles(deps.dataDir);
  const now = deps.now ?? Date.now;

  const dirOf = (snapshotId: string, storedScreenshot: string) => {
    if (!SAFE_ID.test(snapshotId)) throw new Error(`unsafe snapshot id: ${snapshotId}`);
    // The folder sits beside the screenshot; toAbsolute refuses a stored path outside the root.
    return filmstripDirFor(join(dirname(files.toAbsolute(storedScreenshot)), `${snapshotId}.png`));
  };

  async function readManifest(dir: string): Promise<FilmstripManifest | null> {
    const file = Bun.file(join(dir, MANIFEST_FILE));
    if (!(await file.exists())) return null;
    const parsed = filmstripManifestSchema.safeParse(await file.json().catch(() => null));
    return parsed.success ? parsed.data : null;
  }

  /** Recordings of snapshots that no longer exist (old runs pruned, captures that failed late). */
  async function pruneOrphans(comparisonDir: string, comparisonId: string) {
    const root = join(comparisonDir, "filmstrips");
    const names = await readdir(root).catch(() => [] as string[]);
    if (names.length === 0) return;
    const live = repo.snapshotIds(comparisonId);
    for (const name of names) {
      if (live.has(name) || !SAFE_ID.test(name)) continue;
      const info = await stat(join(root, name)).catch(() => null);
      if (info && now() - info.mtimeMs > ORPHAN_AFTER_MS) await rm(join(root, name), { recursive: true, force: true }).catch(() => {});
    }
  }

  return {
    /** The filmstrip of each target's latest snapshot per viewport; snapshots recorded without one are left out. */
    async forComparison(ownerId: string, comparisonId: string): Promise<FilmstripDto[]> {
      if (!repo.ownsComparison(ownerId, comparisonId)) throw notFound("Comparison not found");
      const snapshots = repo.latestSnapshots(ownerId, comparisonId);
      const out: FilmstripDto[] = [];
      for (const s of snapshots) {
        const manifest = await readManifest(dirOf(s.id, s.screenshot_path)).catch(() => null);
        if (!manifest) continue;
        out.push({
          snapshotId: s.id,
          targetId: s.target_id,
          viewport: s.viewport,
          width: manifest.width,
          height: manifest.height,
          frames: manifest.frames.map((f, i) => ({ ms: f.ms, url: `/api/snapshots/${encodeURIComponent(s.id)}/filmstrip/${i}` })),
        });
      }
      const first = snapshots[0];
      if (first) {
        const comparisonDir = dirname(files.toAbsolute(first.screenshot_path));
        pruneOrphans(comparisonDir, comparisonId).catch((e) => deps.log?.("could not prune old filmstrips", e));
      }
      return out;
    },

    /** Absolute path of one frame of a snapshot the user owns. */
    async framePath(ownerId: string, snapshotId: string, index: number): Promise<string> {
      const s = repo.findSnapshot(ownerId, snapshotId);
      if (!s) throw notFound("Filmstrip not found");
      const dir = dirOf(s.id, s.screenshot_path);
      const frame = (await readManifest(dir))?.frames[index];
      if (!frame) throw notFound("Filmstrip frame not found");
      const path = join(dir, frame.file);
      if (!(await Bun.file(path).exists())) throw notFound("Filmstrip frame not found");
      return path;
    },
  };
}
export type FilmstripService = ReturnType<typeof filmstripService>;
