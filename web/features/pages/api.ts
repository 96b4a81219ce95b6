// Calls for a site's pages, their discovery and the site's secrets: paths and answers typed from
// the server's routes.
import type { CreatePageInput, UpdatePageInput } from "#server/modules/pages/model";
import { api, call } from "#web/lib/api";

const enc = encodeURIComponent;
const site = (targetId: string) => api.targets({ id: enc(targetId) });

export const listPages = (targetId: string) => call(site(targetId).pages.get());
export const addPage = (targetId: string, input: CreatePageInput) => call(site(targetId).pages.post(input));
export const updatePage = (pageId: string, input: UpdatePageInput) => call(api.pages({ id: enc(pageId) }).patch(input));
export const deletePage = (pageId: string) => call(api.pages({ id: enc(pageId) }).delete());

export const discoverPages = (targetId: string) => call(site(targetId).discover.post());

export const listSecrets = (targetId: string) => call(site(targetId).secrets.get());
export const putSecret = (targetId: string, name: string, value: string) =>
  call(
    site(targetId)
      .secrets({ name: enc(name) })
      .put({ value }),
  );
export const deleteSecret = (targetId: string, name: string) =>
  call(
    site(targetId)
      .secrets({ name: enc(name) })
      .delete(),
  );

export type { PageDto } from "#server/modules/pages/model";
export type { DiscoveredPage, DiscoveryDto } from "#server/modules/discovery/model";
export type { SecretView } from "#server/modules/secrets/model";
