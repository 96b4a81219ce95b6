// Share links of a comparison: make, list, revoke. Types come from the server's schemas.
import type { CreatedShare, CreateShareInput, ShareView } from "#server/modules/share/model";
import { api, call } from "#web/lib/api";

export type { CreatedShare, ShareView };

const enc = encodeURIComponent;

export const listShares = (comparisonId: string) => call(api.comparisons({ id: enc(comparisonId) }).shares.get());
export const createShare = (comparisonId: string, input: CreateShareInput) =>
  call(api.comparisons({ id: enc(comparisonId) }).shares.post(input));
export const revokeShare = (id: string) => call(api.shares({ id: enc(id) }).delete());
