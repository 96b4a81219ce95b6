// Pages of a site: list, add, change and remove, on the workspace's targets. Every page is a path on
// its site's origin; its steps are checked when saved (each step's shape, then the rules that need
// the site: a goto stays on it, the waits fit the limit), so a capture never starts on a list
// that breaks them.
import type { SqlDb } from "#server/db/sql";
import { badRequest, conflict, notFound } from "#server/http/errors";
import { newId, nowIso } from "#server/lib/ids";
import { stepSchema, stepsProblem, type Step } from "#server/modules/capture/model";
import { MAX_PAGES_PER_SITE, type CreatePageInput, type PageDto, type UpdatePageInput } from "./model";
import { pagesRepository, type PageRow } from "./repository";

const SITE_NOT_FOUND = "Website not found";
const PAGE_NOT_FOUND = "Page not found";

export interface PagesDeps {
  db: SqlDb;
  now?: () => number;
  log?: (msg: string, err?: unknown) => void;
  /** Removes a stored screenshot no snapshot names any more (the comparisons' files); none in tests. */
  removeUnusedScreenshot?: (path: string, inUse: (path: string) => Promise<boolean>) => unknown;
}

/** The page's path on the site: a path ("/pricing", "pricing") or an absolute URL of the same origin. */
export function pagePath(raw: string, siteUrl: string): string {
  const site = new URL(siteUrl);
  if (!URL.canParse(raw, `${site.origin}/`)) throw badRequest("A page's path is not a web address");
  const u = new URL(raw, `${site.origin}/`);
  if (u.origin !== site.origin) throw badRequest(`A page is on its site's own origin (${site.origin})`);
  return `${u.pathname}${u.search}${u.hash}`;
}

/** The steps as saved, or 400 naming the first step that breaks a rule ("Step 3: …"). */
export function checkedSteps(raw: readonly unknown[], siteOrigin: string): Step[] {
  const steps: Step[] = [];
  for (const [i, s] of raw.entries()) {
    const parsed = stepSchema.safeParse(s);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ` : "";
      throw badRequest(`Step ${i + 1}: ${where}${issue?.message ?? "not a step"}`);
    }
    steps.push(parsed.data);
  }
  const problem = stepsProblem(steps, siteOrigin);
  if (problem) throw badRequest(problem);
  return steps;
}

export function toPageDto(r: PageRow, siteUrl: string): PageDto {
  return {
    id: r.id,
    targetId: r.target_id,
    path: r.path,
    url: `${new URL(siteUrl).origin}${r.path}`,
    role: r.role,
    steps: JSON.parse(r.steps) as Step[],
  };
}

export function pagesService(deps: PagesDeps) {
  const repo = pagesRepository(deps.db);
  const now = deps.now ?? Date.now;
  const log = deps.log ?? ((msg: string, err?: unknown) => console.error(msg, err));

  const site = async (ownerId: string, targetId: string) => {
    const s = await repo.findSite(targetId, ownerId);
    if (!s) throw notFound(SITE_NOT_FOUND);
    return s;
  };
  const page = async (ownerId: string, pageId: string) => {
    const p = await repo.findPage(pageId, ownerId);
    if (!p) throw notFound(PAGE_NOT_FOUND);
    return { page: p, site: await site(ownerId, p.target_id) };
  };

  return {
    /** The site's pages, home first, then in the order added. */
    async list(ownerId: string, targetId: string): Promise<PageDto[]> {
      const s = await site(ownerId, targetId);
      return (await repo.listPages(targetId, ownerId)).map((p) => toPageDto(p, s.url));
    },

    async create(ownerId: string, targetId: string, input: CreatePageInput): Promise<PageDto> {
      const id = newId();
      const row = await deps.db.tx(async () => {
        const s = await site(ownerId, targetId);
        const origin = new URL(s.url).origin;
        const path = pagePath(input.path, s.url);
        const steps = checkedSteps(input.steps ?? [], origin);
        const { n, last } = await repo.countPages(targetId);
        if (n >= MAX_PAGES_PER_SITE) throw conflict(`A site has at most ${MAX_PAGES_PER_SITE} pages, its home page included`);
        if (await repo.hasPath(targetId, path)) throw conflict("This page is already in the site");
        const r: PageRow = {
          id,
          target_id: targetId,
          comparison_id: s.comparison_id,
          owner_id: ownerId,
          path,
          role: input.role,
          steps: JSON.stringify(steps),
          position: (last ?? 0) + 1,
          created_at: nowIso(now()),
        };
        await repo.insertPage(r);
        return { r, url: s.url };
      });
      return toPageDto(row.r, row.url);
    },

    async update(ownerId: string, pageId: string, input: UpdatePageInput): Promise<PageDto> {
      return deps.db.tx(async () => {
        const { page: p, site: s } = await page(ownerId, pageId);
        const origin = new URL(s.url).origin;
        if (p.position === 0 && input.role !== undefined && input.role !== "home") throw conflict("A site's home page keeps the role home");
        const path = input.path === undefined ? p.path : pagePath(input.path, s.url);
        if (path !== p.path && (await repo.hasPath(p.target_id, path, p.id))) throw conflict("This page is already in the site");
        const steps = input.steps === undefined ? p.steps : JSON.stringify(checkedSteps(input.steps, origin));
        const next = { ...p, path, role: input.role ?? p.role, steps };
        await repo.updatePage(next);
        return toPageDto(next, s.url);
      });
    },

    /** The home page stays (every site has one); a page is not removed while its comparison runs. */
    async remove(ownerId: string, pageId: string): Promise<void> {
      const paths = await deps.db.tx(async () => {
        const { page: p, site: s } = await page(ownerId, pageId);
        if (p.position === 0) throw conflict("A site's home page cannot be deleted; delete the website instead");
        if (s.status === "running") throw conflict("Pages cannot be removed while the analysis is running");
        const stored = await repo.screenshotsOfPage(pageId);
        await repo.deletePage(pageId, ownerId);
        return stored;
      });
      // Only files no other snapshot shares (identical captures are one file).
      for (const path of paths) {
        try {
          await deps.removeUnusedScreenshot?.(path, repo.pathInUse);
        } catch (e) {
          log("could not remove a page's screenshot", e);
        }
      }
    },
  };
}

export type PagesService = ReturnType<typeof pagesService>;
