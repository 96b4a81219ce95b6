// Request and response shapes of share links, declared once (zod) with their types derived. The
// web client imports the types only.
import { z } from "zod";
import { diffDto, findingDto, snapshotDto } from "#server/modules/comparisons/model";

/** 32 random bytes: 256 bits, 43 characters of base64url. */
export const SHARE_TOKEN_BYTES = 32;
/** The shape of every token this server hands out; anything else is not looked up at all. */
export const SHARE_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** Links kept per comparison, revoked ones included (each is a row in the list). */
export const MAX_SHARES_PER_COMPARISON = 100;

/**
 * What every answer under /share and /api/share carries: not indexed by search engines, no token in
 * the Referer of any request the page makes, and never kept by a shared cache (a proxy or CDN would
 * otherwise go on serving a link after it was revoked).
 */
export const SHARE_RESPONSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "x-robots-tag": "noindex, nofollow",
  "referrer-policy": "no-referrer",
  "cache-control": "private, no-store",
});

export const createShareBody = z.object({
  /** A completed run of the comparison; the latest completed one when absent. */
  runId: z.string({ error: "runId must be a string" }).max(100, "runId is too long").optional(),
  /** When the link stops working; never when absent or null. */
  expiresAt: z.iso
    .datetime({ offset: true, error: "expiresAt must be an ISO 8601 date and time" })
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});
export type CreateShareInput = z.infer<typeof createShareBody>;

export const createdShare = z.object({
  id: z.string(),
  /** The link, with its token: this answer is the only place the token ever appears. */
  url: z.string(),
  expiresAt: z.string().nullable(),
});
export type CreatedShare = z.infer<typeof createdShare>;

export const shareView = z.object({
  id: z.string(),
  runId: z.string(),
  /** The shared run's number within the comparison. */
  runNumber: z.number().int(),
  createdAt: z.string(),
  /** Who made the link; null once their account is gone. */
  createdBy: z.object({ id: z.string(), email: z.string(), username: z.string().nullable() }).nullable(),
  expiresAt: z.string().nullable(),
  /** Times the shared results were opened. */
  views: z.number().int(),
  lastViewedAt: z.string().nullable(),
  revoked: z.boolean(),
});
export type ShareView = z.infer<typeof shareView>;

export const shareIdParams = z.object({ id: z.string() });
export const tokenParams = z.object({ token: z.string() });
export const shareScreenshotParams = z.object({ token: z.string(), snapshotId: z.string() });

/** A website as the shared page names it: no ids of anything but the run's own rows. */
export const sharedTarget = z.object({ id: z.string(), label: z.string(), url: z.string(), createdAt: z.string() });
export type SharedTarget = z.infer<typeof sharedTarget>;

/**
 * GET /api/share/:token: one run's results and nothing else. Screenshot URLs point under the
 * share's own path, so the page needs no other route.
 */
export const sharedResults = z.object({
  expiresAt: z.string().nullable(),
  comparison: z.object({ name: z.string(), description: z.string().nullable() }),
  run: z.object({ number: z.number().int(), startedAt: z.string(), finishedAt: z.string().nullable() }),
  targets: z.array(sharedTarget),
  snapshots: z.array(snapshotDto),
  diffs: z.array(diffDto),
  findings: z.array(findingDto),
});
export type SharedResults = z.infer<typeof sharedResults>;
