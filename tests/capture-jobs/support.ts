// What the capture-jobs tests share: a database on either dialect with a user to own the jobs, a
// files blob store of the test's own, and a stand-in for the capture pool that answers like one
// (a real PNG at the path it is given, stages, an extraction, a thumbnail, a session on request), and
// the comparison folder its screenshots are stored in.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { databaseTarget, migrateSql, openSql, sqliteSql, type SqlDb } from "#server/db/sql";
import type { CaptureJobInput, CaptureResult, TimingJobInput, TimingResult } from "#server/modules/capture/public";
import type { Extraction, SessionState } from "#server/modules/capture/model";
import { contentKey } from "#server/modules/comparisons/public";
import { filesStore, type BlobStore } from "#server/modules/storage";
import { freshPgDatabase } from "#tests/support/postgres";

export const OWNER = "u-capjobs";
export const APP_SECRET = new TextEncoder().encode("a-test-app-secret-of-at-least-32-characters");

/** A user (and so a personal workspace) to own the jobs. */
export async function addOwner(db: SqlDb, id = OWNER) {
  await db.run("INSERT INTO users (id, email, password_hash, created_at) VALUES ($1, $2, 'x', $3)", [
    id,
    `${id}@example.com`,
    new Date().toISOString(),
  ]);
}

export async function sqliteHandle(): Promise<SqlDb> {
  const raw = openDatabase(":memory:");
  migrate(raw);
  const db = sqliteSql(raw);
  await addOwner(db);
  return db;
}

/** `n` handles on one fresh migrated PostgreSQL database (the run's instance and its workers, each with its own connections). */
export async function pgHandles(n: number): Promise<SqlDb[]> {
  const url = await freshPgDatabase();
  const first = await openSql(databaseTarget(url, "."), { max: 3 });
  await migrateSql(first);
  await addOwner(first);
  const rest = await Promise.all(Array.from({ length: n - 1 }, () => openSql(databaseTarget(url, "."), { max: 3 })));
  return [first, ...rest];
}

export function tempStore(): { store: BlobStore; dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "capjobs-store-"));
  return { store: filesStore(dir), dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The comparison folder the tests' captures are stored in (files.ts folderOf's answer for their paths). */
export const FOLDER = `screenshots/${OWNER}/c-capjobs`;
export const folderOf = () => FOLDER;

/** The key a screenshot of these bytes is stored under. */
export const keyOf = (bytes: Uint8Array) => contentKey(FOLDER, new Bun.CryptoHasher("sha256").update(bytes).digest("hex"));

/** Every screenshot object in the store. */
export async function screenshotObjects(store: BlobStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const b of store.list("screenshots/")) keys.push(b.key);
  return keys.sort();
}

/** Every temporary object the workers left in the store. */
export async function tempObjects(store: BlobStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const b of store.list("capture-jobs/")) keys.push(b.key);
  return keys;
}

export const SESSION: SessionState = {
  cookies: [
    {
      name: "sid",
      value: "cookie-value-4f1d9c",
      domain: "127.0.0.1",
      path: "/",
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: "Lax",
    },
  ],
  origins: [],
};

export const STAGES = ["navigating", "settling", "measuring", "screenshot"] as const;

type Answer = "capture" | "stopped" | "throw" | "lost" | "unreachable";

/** Shaped like CapturePool's submit and submitTiming; answers in turn from `answers` (then "capture"). */
export class FakePool {
  readonly inputs: CaptureJobInput[] = [];
  readonly owners: string[] = [];
  readonly pngs = new Map<string, Buffer>();
  constructor(
    private readonly answers: Answer[] = [],
    private readonly delayMs = 0,
    readonly lostReason = "The remote browser went away while capturing this page",
  ) {}

  async submit(ownerId: string, input: CaptureJobInput, onStage?: (stage: (typeof STAGES)[number]) => void): Promise<CaptureResult> {
    this.inputs.push(input);
    this.owners.push(ownerId);
    const answer = this.answers.shift() ?? "capture";
    if (answer === "throw") throw new Error("the browser exploded");
    if (answer === "lost") return { ok: false, reason: this.lostReason };
    if (answer === "unreachable") return { ok: false, reason: "The page could not be reached (connection refused)" };
    // Back to back: the stages must still arrive in order.
    for (const s of STAGES) onStage?.(s);
    await Bun.sleep(this.delayMs);
    const png = new PNG({ width: 8, height: 6 });
    png.data.fill(0x7f);
    const bytes = PNG.sync.write(png);
    await Bun.write(input.screenshotPath, bytes);
    this.pngs.set(input.url, bytes);
    if (answer === "stopped") {
      const step = { index: 2, error: 'nothing on the page matches "#go"' };
      return { ok: false, reason: `Step 2: ${step.error}`, step, screenshotPath: input.screenshotPath, session: SESSION };
    }
    return {
      ok: true,
      extraction: fakeExtraction(input.url),
      screenshotPath: input.screenshotPath,
      thumb: { width: 2, height: 2, data: new Float32Array([0.25, 0.5, 0.75, 1 / 3]) },
      ...(input.keepSession ? { session: SESSION } : {}),
    };
  }

  async submitTiming(_ownerId: string, input: TimingJobInput): Promise<TimingResult> {
    return { ok: true, timing: { samples: [...input.own, ...input.own], spread: {}, profile: input.profile } as never };
  }
}

export const fakeExtraction = (url: string) => ({ url, title: `Captured ${url}`, viewport: "desktop" }) as unknown as Extraction;
