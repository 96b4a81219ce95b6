// Serves the filmstrips the capture worker recorded beside each screenshot (capture/filmstrip/filmstrip.ts),
// from whichever store holds them (an object store gets them with their screenshot, comparisons/files.ts).
// Keys come only from stored rows and server-made ids, checked to stay under the screenshot root.
import { readdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { SqlDb } from "#server/db/sql";
import { notFound } from "#server/http/errors";
import { filmstripManifestSchema, MANIFEST_FILE, type FilmstripManifest } from "#server/modules/capture/public";
import { screenshotFiles, type ScreenshotFiles } from "#server/modules/comparisons/public";
import type { BlobBody } from "#server/modules/storage";
import type { FilmstripDto } from "./model";
import { filmstripRepository } from "./repository";

/** A recording whose snapshot never got stored (failed or cancelled capture) is removed after this. */
const ORPHAN_AFTER_MS = 60 * 60_000;
const SAFE_ID = /^[A-Za-z0-9_-]+$/;

export interface FilmstripDeps {
  db: SqlDb;
  dataDir: string;
  /** Where the screenshots are (the comparisons service's); files under dataDir when absent. */
  files?: ScreenshotFiles;
  now?: () => number;
  log?: (msg: string, err?: unknown) => void;
}

export function filmstripService(deps: FilmstripDeps) {
  const repo = filmstripRepository(deps.db);
  const files = deps.files ?? screenshotFiles(deps.dataDir);
  const store = files.store;
  const now = deps.now ?? Date.now;

  /**
   * A comparison's recordings folder, from one of its stored screenshots: its key, and where the
   * files store keeps it (toAbsolute refuses a stored path outside the root).
   */
  const recordingsOf = (storedScreenshot: string) => ({
    key: `${dirname(storedScreenshot)}/filmstrips`,
    local: join(dirname(files.toAbsolute(storedScreenshot)), "filmstrips"),
  });
  const dirOf = (snapshotId: string, storedScreenshot: string) => {
    if (!SAFE_ID.test(snapshotId)) throw new Error(`unsafe snapshot id: ${snapshotId}`);
    return `${recordingsOf(storedScreenshot).key}/${snapshotId}`;
  };

  async function readManifest(dir: string): Promise<FilmstripManifest | null> {
    const bytes = await store.get(`${dir}/${MANIFEST_FILE}`);
    if (!bytes) return null;
    let json: unknown = null;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return null;
    }
    const parsed = filmstripManifestSchema.safeParse(json);
    return parsed.success ? parsed.data : null;
  }

  /** Each recording (by snapshot id) under a comparison's folder, with when it was last written. */
  async function recordings(folder: { key: string; local: string }): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    if (!files.remote) {
      // The files store's folders themselves: one being written, or left empty, has its own time.
      for (const name of await readdir(folder.local).catch(() => [] as string[])) {
        const info = await stat(join(folder.local, name)).catch(() => null);
        if (info) found.set(name, info.mtimeMs);
      }
      return found;
    }
    for await (const b of store.list(`${folder.key}/`)) {
      const name = b.key.slice(folder.key.length + 1).split("/")[0]!;
      found.set(name, Math.max(found.get(name) ?? 0, b.modifiedAt));
    }
    return found;
  }

  /** Recordings of snapshots that no longer exist (old runs pruned, captures that failed late). */
  async function pruneOrphans(folder: { key: string; local: string }, comparisonId: string) {
    const found = await recordings(folder);
    if (found.size === 0) return;
    const live = await repo.snapshotIds(comparisonId);
    for (const [name, modifiedAt] of found) {
      if (live.has(name) || !SAFE_ID.test(name)) continue;
      if (now() - modifiedAt > ORPHAN_AFTER_MS) await store.deletePrefix(`${folder.key}/${name}/`).catch(() => {});
    }
  }

  return {
    /** The filmstrip of each page's latest snapshot per scheme and viewport (matched by snapshotId); snapshots recorded without one are left out. */
    async forComparison(ownerId: string, comparisonId: string): Promise<FilmstripDto[]> {
      if (!(await repo.ownsComparison(ownerId, comparisonId))) throw notFound("Comparison not found");
      const snapshots = await repo.latestSnapshots(ownerId, comparisonId);
      const manifests = await Promise.all(snapshots.map((s) => readManifest(dirOf(s.id, s.screenshot_path)).catch(() => null)));
      const out: FilmstripDto[] = [];
      snapshots.forEach((s, i) => {
        const manifest = manifests[i];
        if (!manifest) return;
        out.push({
          snapshotId: s.id,
          targetId: s.target_id,
          viewport: s.viewport,
          width: manifest.width,
          height: manifest.height,
          frames: manifest.frames.map((f, n) => ({ ms: f.ms, url: `/api/snapshots/${encodeURIComponent(s.id)}/filmstrip/${n}` })),
        });
      });
      const first = snapshots[0];
      if (first)
        pruneOrphans(recordingsOf(first.screenshot_path), comparisonId).catch((e) => deps.log?.("could not prune old filmstrips", e));
      return out;
    },

    /** One frame of a snapshot the user owns, to stream. */
    async frame(ownerId: string, snapshotId: string, index: number): Promise<BlobBody> {
      const s = await repo.findSnapshot(ownerId, snapshotId);
      if (!s) throw notFound("Filmstrip not found");
      const dir = dirOf(s.id, s.screenshot_path);
      const frame = (await readManifest(dir))?.frames[index];
      if (!frame) throw notFound("Filmstrip frame not found");
      const found = await store.open(`${dir}/${frame.file}`);
      if (!found) throw notFound("Filmstrip frame not found");
      return found;
    },
  };
}
export type FilmstripService = ReturnType<typeof filmstripService>;
