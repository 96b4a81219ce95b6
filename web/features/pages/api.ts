// Calls for a site's pages, their discovery and the site's secrets. Discovery and secrets are typed
// from the server's routes; the pages routes (issue 33's contract: GET/POST /api/targets/:id/pages,
// PATCH/DELETE /api/pages/:id) are typed here by `PagesRoutes` until their module is in `App`, then
// the cast below can go and `api.targets(…).pages` is typed like the rest.
import type { PageRole, Step } from "#server/modules/capture/model";
import { type Answer, api, call } from "#web/lib/api";

const enc = encodeURIComponent;

/** A page of a site: its path on the site's origin, what it is for, and the steps before capture. */
export interface PageDto {
  id: string;
  path: string;
  url: string;
  role: PageRole;
  steps: Step[];
}

export interface PageInput {
  path: string;
  role: PageRole;
  steps?: Step[];
}

type Reply<T> = Promise<Answer & ({ data: T; error: null } | { data: null; error: unknown })>;

interface PagesRoutes {
  targets(p: { id: string }): {
    pages: { get(): Reply<PageDto[]>; post(body: PageInput): Reply<PageDto> };
  };
  pages(p: { id: string }): { patch(body: Partial<PageInput>): Reply<PageDto>; delete(): Reply<undefined> };
}

const pagesApi = api as unknown as PagesRoutes;

export const listPages = (targetId: string) => call(pagesApi.targets({ id: enc(targetId) }).pages.get());
export const addPage = (targetId: string, input: PageInput) => call(pagesApi.targets({ id: enc(targetId) }).pages.post(input));
export const updatePage = (pageId: string, input: Partial<PageInput>) => call(pagesApi.pages({ id: enc(pageId) }).patch(input));
export const deletePage = (pageId: string) => call(pagesApi.pages({ id: enc(pageId) }).delete());

export const discoverPages = (targetId: string) => call(api.targets({ id: enc(targetId) }).discover.post());

export const listSecrets = (targetId: string) => call(api.targets({ id: enc(targetId) }).secrets.get());
export const putSecret = (targetId: string, name: string, value: string) =>
  call(
    api
      .targets({ id: enc(targetId) })
      .secrets({ name: enc(name) })
      .put({ value }),
  );
export const deleteSecret = (targetId: string, name: string) =>
  call(
    api
      .targets({ id: enc(targetId) })
      .secrets({ name: enc(name) })
      .delete(),
  );

export type { DiscoveredPage, DiscoveryDto } from "#server/modules/discovery/model";
export type { SecretView } from "#server/modules/secrets/model";
