// The one HTTP client for the browser: bearer token, single-flight refresh, spec-shaped errors.

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
}

let tokens: TokenSource = { getToken: () => null, refresh: async () => null };
export function setTokenSource(source: TokenSource): void {
  tokens = source;
}

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

export interface RequestOptions {
  method?: string;
  body?: unknown;
  /** Answer null instead of throwing on 401 (spec §7 "a read can be configured to yield null on 401"). */
  nullOn401?: boolean;
  signal?: AbortSignal;
  /** Let the request finish even if the page navigates away meanwhile (see refreshSession). */
  keepalive?: boolean;
}

export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const send = (token: string | null) =>
    fetch(path, {
      method: opts.method ?? (opts.body === undefined ? "GET" : "POST"),
      credentials: "include",
      signal: opts.signal,
      keepalive: opts.keepalive,
      headers: {
        ...(opts.body === undefined ? {} : { "content-type": "application/json" }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  let res = await send(tokens.getToken());
  if (res.status === 401 && !path.startsWith("/api/auth/")) {
    const fresh = await tokens.refresh();
    if (fresh) res = await send(fresh);
  }
  if (res.status === 401 && opts.nullOn401) return null as T;
  if (!res.ok) throw await toError(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** Where a download gets its bearer token; features may pass their own, else the session's. */
export interface BearerSource {
  token(): string | null;
  refresh(): Promise<string | null>;
}

/**
 * A non-JSON body (a report, a backup) as a Blob, with the same bearer-then-refresh steps and
 * the same errors as `api`.
 */
export async function apiBlob(path: string, auth?: BearerSource): Promise<Blob> {
  const source = auth ?? { token: () => tokens.getToken(), refresh: () => tokens.refresh() };
  const send = (token: string | null) =>
    fetch(path, { credentials: "include", headers: token ? { authorization: `Bearer ${token}` } : {} });
  let res = await send(source.token());
  if (res.status === 401) {
    const fresh = await source.refresh();
    if (fresh) res = await send(fresh);
  }
  if (!res.ok) throw await toError(res);
  return res.blob();
}

/** The message a toast should show: the server's own words when it gave some, else the fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.serverMessage) return err.serverMessage;
  return fallback;
}
