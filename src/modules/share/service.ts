// Share links: one completed run's results, read-only, for whoever holds the link. The workspace's
// side (make, list, revoke) checks that the comparison is the workspace's; the public side finds a
// link by the hash of its token and serves that run's results and screenshots, nothing else.
import type { SqlDb } from "#server/db/sql";
import { HttpError, badRequest, conflict, notFound } from "#server/http/errors";
import { newId, nowIso, randomToken, sha256 } from "#server/lib/ids";
import type { SignedInActor } from "#server/modules/audit/model";
import type { AuditService } from "#server/modules/audit/service";
import type { TargetDto } from "#server/modules/comparisons/model";
import type { BlobBody } from "#server/modules/storage/model";
import type { RunDetail } from "#server/modules/history/model";
import {
  type CreateShareInput,
  type CreatedShare,
  MAX_SHARES_PER_COMPARISON,
  SHARE_RESPONSE_HEADERS,
  SHARE_TOKEN_BYTES,
  SHARE_TOKEN_SHAPE,
  type SharedResults,
  type SharedTarget,
  type ShareView,
} from "./model";
import { type OpenedShareRow, type ShareListRow, shareRepository } from "./repository";

const COMPARISON_NOT_FOUND = "Comparison not found";
/** One answer for unknown, revoked and expired links alike: the caller learns nothing about which. */
export const SHARE_GONE = "This link does not exist, has expired or was revoked";

export interface ShareDeps {
  db: SqlDb;
  audit: Pick<AuditService, "recordIn">;
  /** One run's results as they were stored, read as the comparison's owner (the history module). */
  runResults(ownerId: string, comparisonId: string, runId: string): Promise<RunDetail>;
  /** The comparison's websites as they are now, read as its owner (the comparisons module). */
  targets(ownerId: string, comparisonId: string): Promise<TargetDto[]>;
  /** A snapshot's screenshot file, read as its owner (the comparisons module's file handling). */
  screenshot(ownerId: string, snapshotId: string): Promise<BlobBody>;
  now?: () => number;
}

const gone = () => new HttpError(404, SHARE_GONE, {}, { ...SHARE_RESPONSE_HEADERS });

/**
 * The link's token is 256 bits from crypto.getRandomValues, so its SHA-256 is all the protection the
 * stored value needs: a slow password hash guards low-entropy secrets against guessing, and there is
 * nothing here to guess. Looking the hash up through the index is not a timing oracle either: what
 * a caller could learn from it is how many leading bytes of some stored hash their input's hash
 * shares, and that brings them no closer to any token.
 */
export const hashShareToken = (token: string): string => sha256(token);

export const newShareToken = (): string => randomToken(SHARE_TOKEN_BYTES);

const toView = (r: ShareListRow): ShareView => ({
  id: r.id,
  runId: r.run_id,
  runNumber: r.run_number,
  createdAt: r.created_at,
  createdBy: r.created_by && r.creator_email ? { id: r.created_by, email: r.creator_email, username: r.creator_username } : null,
  expiresAt: r.expires_at,
  views: r.views,
  lastViewedAt: r.last_viewed_at,
  revoked: r.revoked_at !== null,
});

/**
 * The run's websites: those its snapshots, scores or findings name, in the comparison's order. A
 * website removed since keeps its results under a stand-in label.
 */
function runTargets(detail: RunDetail, current: TargetDto[]): SharedTarget[] {
  const named = new Set<string>();
  for (const s of detail.snapshots) named.add(s.targetId);
  for (const d of detail.diffs) named.add(d.targetAId).add(d.targetBId);
  for (const f of detail.findings) if (f.targetId) named.add(f.targetId);
  const kept = current.filter((t) => named.has(t.id)).map((t) => ({ id: t.id, label: t.label, url: t.url, createdAt: t.createdAt }));
  const known = new Set(kept.map((t) => t.id));
  const removed = [...named]
    .filter((id) => !known.has(id))
    .map((id, i) => ({
      id,
      label: `Removed website ${i + 1}`,
      url: detail.snapshots.find((s) => s.targetId === id)?.extraction?.finalUrl ?? "",
      createdAt: detail.run.startedAt,
    }));
  return [...kept, ...removed];
}

export function shareService(deps: ShareDeps) {
  const repo = shareRepository(deps.db);
  const now = deps.now ?? Date.now;
  // The role it takes (viewer lists, editor makes and revokes) is the route's; here, only that the
  // comparison is the workspace's.
  const managed = async (workspaceId: string, comparisonId: string) => {
    if (!(await repo.ownsComparison(comparisonId, workspaceId))) throw notFound(COMPARISON_NOT_FOUND);
  };

  /** The live link a token opens, or the same 404 for every reason it does not. */
  async function live(token: string): Promise<OpenedShareRow> {
    if (!SHARE_TOKEN_SHAPE.test(token)) throw gone();
    const row = await repo.byTokenHash(hashShareToken(token));
    if (!row || row.revoked_at !== null || (row.expires_at !== null && Date.parse(row.expires_at) <= now())) throw gone();
    return row;
  }

  return {
    /**
     * A link to a run of a comparison of the workspace `workspaceId`, made by `actor` (the list shows
     * who). `origin`: where the link points (PUBLIC_URL, else the origin the request came to).
     */
    async create(
      workspaceId: string,
      actor: SignedInActor,
      comparisonId: string,
      input: CreateShareInput,
      origin: string,
    ): Promise<CreatedShare> {
      await managed(workspaceId, comparisonId);
      const at = now();
      const expiresAt = input.expiresAt === null ? null : Date.parse(input.expiresAt);
      if (expiresAt !== null && expiresAt <= at) throw badRequest("expiresAt must be in the future");
      const token = newShareToken();
      const id = newId();
      const runId = await deps.db.tx(async () => {
        const run = input.runId ? await repo.findRun(input.runId, comparisonId) : await repo.latestCompletedRun(comparisonId);
        if (!run && input.runId) throw notFound("Run not found");
        if (!run) throw badRequest("This comparison has no completed run to share yet");
        if (run.status !== "completed") throw badRequest("Only a completed run can be shared");
        if ((await repo.countFor(comparisonId)) >= MAX_SHARES_PER_COMPARISON)
          throw conflict(`A comparison keeps up to ${MAX_SHARES_PER_COMPARISON} share links`);
        await repo.insert({
          id,
          comparisonId,
          runId: run.id,
          tokenHash: hashShareToken(token),
          createdBy: actor.id,
          at: nowIso(at),
          expiresAt: expiresAt === null ? null : nowIso(expiresAt),
        });
        return run.id;
      });
      await deps.audit.recordIn(workspaceId, actor, "share.created", id, {
        comparisonId,
        runId,
        expiresAt: expiresAt === null ? null : nowIso(expiresAt),
      });
      return { id, url: `${origin}/share/${token}`, expiresAt: expiresAt === null ? null : nowIso(expiresAt) };
    },

    async list(workspaceId: string, comparisonId: string): Promise<ShareView[]> {
      await managed(workspaceId, comparisonId);
      return (await repo.listFor(comparisonId)).map(toView);
    },

    /** Revoking a revoked link changes and records nothing. */
    async revoke(workspaceId: string, actor: SignedInActor, shareId: string): Promise<void> {
      const share = await repo.find(shareId);
      if (!share || !(await repo.ownsComparison(share.comparison_id, workspaceId))) throw notFound("Share link not found");
      if (await repo.revoke(shareId, nowIso(now())))
        await deps.audit.recordIn(workspaceId, actor, "share.revoked", shareId, { comparisonId: share.comparison_id, runId: share.run_id });
    },

    /** The shared run's results, counted as a view; screenshots point under the link's own path. */
    async open(token: string): Promise<SharedResults> {
      const share = await live(token);
      const detail = await deps.runResults(share.owner_id, share.comparison_id, share.run_id);
      await repo.countView(share.id, nowIso(now()));
      const targets = await deps.targets(share.owner_id, share.comparison_id);
      const base = `/api/share/${token}/screenshots/`;
      return {
        expiresAt: share.expires_at,
        comparison: { name: share.comparison_name, description: share.comparison_description },
        run: { number: share.run_number, startedAt: share.run_started_at, finishedAt: share.run_finished_at },
        targets: runTargets(detail, targets),
        snapshots: detail.snapshots.map((s) => ({ ...s, screenshotUrl: base + encodeURIComponent(s.id) })),
        diffs: detail.diffs,
        findings: detail.findings,
      };
    },

    /** A screenshot of the shared run only: any other snapshot id is the same 404 as a dead link. */
    async screenshot(token: string, snapshotId: string): Promise<BlobBody> {
      const share = await live(token);
      if (!(await repo.snapshotInRun(snapshotId, share.run_id, share.comparison_id))) throw gone();
      try {
        return await deps.screenshot(share.owner_id, snapshotId);
      } catch (e) {
        if (e instanceof HttpError && e.status === 404) throw gone();
        throw e;
      }
    },
  };
}

export type ShareService = ReturnType<typeof shareService>;
