// Pages of a site: GET/POST /targets/:id/pages, PATCH/DELETE /pages/:id, on the workspace's targets.
import { Elysia } from "elysia";
import { z } from "zod";
import { type WorkspaceResolvers, workspaceGuard } from "#server/http/workspace-guard";
import { errors, idParams, noContentResponse, responds } from "#server/http/contract";
import { MAX_PAGES_PER_SITE, createPageBody, pageDto, updatePageBody } from "./model";
import type { PagesService } from "./service";

const STEPS_RULES =
  'Steps are checked when saved: at most 20, each of a known type with the fields it needs, a goto on the site\'s own origin, waits within the time limit; a list that breaks a rule is answered 400 naming the step ("Step 3: …").';

export function pagesRoutes(pages: PagesService, auth: WorkspaceResolvers) {
  return new Elysia({ prefix: "/api", tags: ["comparisons"] })
    .use(workspaceGuard(auth))
    .get("/targets/:id/pages", ({ workspace, params }) => pages.list(workspace.id, params.id), {
      role: "viewer",
      params: idParams,
      response: { 200: responds(z.array(pageDto)), ...errors(401, 404, 500, 503) },
      detail: { summary: "A site's pages: home first, then in the order added" },
    })
    .post(
      "/targets/:id/pages",
      async ({ workspace, params, body, set }) => {
        const page = await pages.create(workspace.id, params.id, body);
        set.status = 201;
        return page;
      },
      {
        role: "editor",
        params: idParams,
        body: createPageBody,
        response: { 201: responds(pageDto), ...errors(400, 401, 403, 404, 409, 413, 500, 503) },
        detail: {
          summary: "Add a page to a site",
          description: `A path on the site, or an absolute URL on its own origin (another origin: 400), with a role; results compare pages of the same role across sites. 409: the site already has ${MAX_PAGES_PER_SITE} pages (home counts), or this path. ${STEPS_RULES}`,
        },
      },
    )
    .patch("/pages/:id", ({ workspace, params, body }) => pages.update(workspace.id, params.id, body), {
      role: "editor",
      params: idParams,
      body: updatePageBody,
      response: { 200: responds(pageDto), ...errors(400, 401, 403, 404, 409, 413, 500, 503) },
      detail: {
        summary: "Change a page's path, role or steps",
        description: `The home page keeps the role home (409). ${STEPS_RULES}`,
      },
    })
    .delete(
      "/pages/:id",
      async ({ workspace, params, set }) => {
        await pages.remove(workspace.id, params.id);
        set.status = 204;
      },
      {
        role: "editor",
        params: idParams,
        response: errors(401, 403, 404, 409, 500, 503),
        detail: {
          summary: "Remove a page from its site",
          description: "The home page cannot be deleted (409), nor a page while its comparison runs.",
          ...noContentResponse("Deleted"),
        },
      },
    );
}
