// The one HTTP client for the browser: paths, inputs and answers typed from the server's `App`
// (Eden treaty, types only), sent with the bearer token, one refresh-and-retry, spec-shaped errors.
import { treaty } from "@elysiajs/eden/treaty2";
import type { App } from "#server/app";
import { currentWorkspaceId, workspaceGone } from "./workspace";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    /** The server's `{error}` text when it sent one. */
    readonly serverMessage: string | undefined,
    statusText: string,
  ) {
    // Spec §7: "status: body", or the status text when the body is empty.
    super(`${status}: ${body || statusText}`);
  }
}

export interface TokenSource {
  getToken(): string | null;
  /** Returns a fresh token, or null when the session is gone. */
  refresh(): Promise<string | null>;
  /**
   * The token a signed-in page is about to get: on a full load the page is rendered for its user
   * before the first refresh has answered, and a call sent then would only bounce off a 401.
   * Null when there is no session to wait for.
   */
  pending?(): Promise<string | null> | null;
}

let tokens: TokenSource = { getToken: () => null, refresh: async () => null };
export function setTokenSource(source: TokenSource): void {
  tokens = source;
}

/** Where a call gets its bearer token; downloads may pass their own, else the session's. */
export interface BearerSource {
  token(): string | null;
  refresh(): Promise<string | null>;
  pending?(): Promise<string | null> | null;
}

const sessionBearer: BearerSource = {
  token: () => tokens.getToken(),
  refresh: () => tokens.refresh(),
  pending: () => tokens.pending?.() ?? null,
};

export async function toError(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => "");
  let message: string | undefined;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === "string") message = parsed.error;
  } catch {
    /* not JSON */
  }
  return new ApiError(res.status, text, message, res.statusText);
}

/**
 * The fetch every call goes through: cookies, the current workspace, the bearer token (unless the call set its own), on a
 * 401 one refresh and one retry (never for /api/auth/*: a refresh must not refresh itself), and any
 * non-OK answer thrown as an ApiError, so Eden never parses an error body.
 */
function bearerFetch(source: BearerSource) {
  return async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const path = String(input);
    const given = new Headers(init.headers);
    const own = given.get("authorization");
    const hasBody = init.body !== undefined && init.body !== null;
    // Every call acts in the workspace on screen; without one known yet the server uses the last chosen.
    const workspace = given.get("x-workspace-id") ?? currentWorkspaceId();
    const send = (token: string | null) =>
      fetch(path, {
        method: init.method ?? "GET",
        credentials: "include",
        signal: init.signal,
        keepalive: init.keepalive,
        headers: {
          ...(hasBody ? { "content-type": given.get("content-type") ?? "application/json" } : {}),
          ...(token ? { authorization: own ?? `Bearer ${token}` } : {}),
          ...(workspace ? { "x-workspace-id": workspace } : {}),
        },
        body: hasBody ? init.body : undefined,
      });
    let token = own ?? source.token();
    if (!token && !path.startsWith("/api/auth/")) token = (await source.pending?.()) ?? null;
    let res = await send(token);
    if (res.status === 401 && !own && !path.startsWith("/api/auth/")) {
      const fresh = await source.refresh();
      if (fresh) res = await send(fresh);
    }
    if (!res.ok) {
      const err = await toError(res);
      // The workspace named is no longer the caller's (removed, or it was deleted): stop naming it.
      if (workspace && err.status === 404 && err.serverMessage === "Workspace not found") workspaceGone(workspace);
      throw err;
    }
    return res;
  };
}

type Fetcher = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/**
 * A typed client over a transport. Relative paths (keepDomain with no origin), and ISO strings stay
 * strings: the DTOs say `string`, and Eden would otherwise turn them into Dates.
 */
export function createClient(fetcher: Fetcher, onResponse?: (res: Response) => unknown) {
  const send: Fetcher = async (input, init) => {
    const res = await fetcher(input, init);
    // A 204 has no body, whatever content-type it claims; Eden would try to parse one.
    return res.status === 204 ? new Response(null, { status: 204, statusText: res.statusText }) : res;
  };
  // Eden's config asks for `typeof fetch`, which in Bun's types also carries `preconnect`.
  return treaty<App>("", { fetcher: send as typeof fetch, keepDomain: true, parseDate: false, onResponse }).api;
}

/** Every `/api` route: `api.comparisons({ id }).targets.get()`. Wrap calls in `call`. */
export const api = createClient(bearerFetch(sessionBearer));
export type Client = typeof api;

/**
 * A query leaving out fields the server fills in with its own default. Eden types a query by its
 * parsed shape, where a defaulted field is required, but the URL the spec pins leaves it out.
 */
export function serverDefaults<Q>(query: NoInfer<Partial<Q>>): Q {
  return query as Q;
}

/** Any Eden answer (`Treaty.TreatyResponse`); `Ok` is its route's success body. */
export interface Answer {
  data: unknown;
  error: unknown;
  status: number;
  /** Absent when the transport threw. */
  response?: Response;
}
export type Ok<R> = Extract<R, { error: null }> extends { data: infer D } ? D : never;

/**
 * The thrown cause when the transport threw (an ApiError, an abort, a network failure), which
 * Eden wraps as a response-less 503.
 */
function failure(answer: Answer): unknown {
  const cause = (answer.error as { value?: unknown } | null)?.value;
  if (!answer.response) return cause;
  // Only reachable if a transport let a non-OK answer through.
  return new ApiError(answer.status, JSON.stringify(cause), undefined, "");
}

export interface CallOptions {
  /** Answer null instead of throwing on 401 (spec §7 "a read can be configured to yield null on 401"). */
  nullOn401?: boolean;
}

/** A call's success body, or its error thrown (ApiError for an HTTP failure). 204 is undefined. */
export async function call<R extends Answer>(pending: Promise<R>): Promise<Ok<R>>;
export async function call<R extends Answer>(pending: Promise<R>, opts: CallOptions): Promise<Ok<R> | null>;
export async function call<R extends Answer>(pending: Promise<R>, opts: CallOptions = {}): Promise<Ok<R> | null> {
  const answer = await pending;
  if (answer.error) {
    const err = failure(answer);
    if (opts.nullOn401 && err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
  if (answer.status === 204) return undefined as Ok<R>;
  return answer.data as Ok<R>;
}

/**
 * A non-JSON body (a report, a backup) as a Blob: the same typed paths, transport and errors as
 * `call`, the body left unparsed.
 */
export async function download(pick: (client: Client) => Promise<Answer>, auth: BearerSource = sessionBearer): Promise<Blob> {
  const answer = await pick(createClient(bearerFetch(auth), (res) => res.blob()));
  if (answer.error) throw failure(answer);
  return answer.data as Blob;
}

/** The message a toast should show: the server's own words when it gave some, else the fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.serverMessage) return err.serverMessage;
  return fallback;
}
