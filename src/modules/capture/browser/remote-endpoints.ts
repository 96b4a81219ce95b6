// The remote browser servers a capture pool spreads its pages over (BROWSER_WS_ENDPOINTS), and
// what it knows of each: reachable or not, and when to look again. One that fails (refuses a
// connection, closes one, or does not answer at boot) is taken out, said once in the log, and
// looked at again in the background with a growing pause; once it answers it takes pages again.
// Runs on the pool's thread: it never loads Playwright, it only opens and closes a TCP connection.
import net from "node:net";

/** What a page in hand fails with when its remote browser goes away (the pool retries it elsewhere first). */
export const LOST_REASON = "The remote browser went away while capturing this page";

/**
 * How an endpoint is named in logs and health answers: scheme, host and port only. Its path or
 * query may be what grants access to the browser (launchServer's wsPath, a browserless token),
 * and the health answer is public.
 */
export function endpointLabel(endpoint: string): string {
  const url = URL.parse(endpoint);
  return url ? `${url.protocol}//${url.host}` : "an endpoint that is not a URL";
}

/** Host and port a TCP probe dials: the URL's, or the scheme's usual port. */
function hostPort(endpoint: string): { host: string; port: number } {
  const url = new URL(endpoint);
  const port = Number(url.port) || (url.protocol === "wss:" ? 443 : 80);
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port };
}

const PROBE_TIMEOUT_MS = 5000;

/** Null when something accepts TCP connections at the endpoint's host and port; else why not. */
export function probeEndpoint(endpoint: string): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(hostPort(endpoint));
    const done = (result: string | null) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`));
    socket.once("connect", () => done(null));
    socket.once("error", (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}

export interface RemoteEndpoint {
  readonly url: string;
  readonly label: string;
  /** Null until the first probe or connection says. */
  reachable: boolean | null;
  /** Why it is not reachable, last time it was not. */
  detail: string | null;
  /** Failures since it last took a connection: the pause before the next look grows with them. */
  failures: number;
  /** Its outage has been written to the log (once per outage). */
  announced: boolean;
  /**
   * The last failure was a connection the server itself refused or closed, not a socket error. A
   * server can answer TCP and still refuse every connection (a wrong path, a Playwright version it
   * does not serve): a probe answering then proves little, so only a connection ends the outage in
   * the log, which is then not filled with the back-and-forth of such a server.
   */
  refusedConnection: boolean;
  retry?: ReturnType<typeof setTimeout>;
}

export interface RemoteReadiness {
  reachable: number;
  total: number;
  endpoints: { endpoint: string; reachable: boolean; detail: string | null }[];
}

export interface RemoteEndpointsOptions {
  log: (message: string) => void;
  /** Called when an endpoint answers again, so waiting pages can go to it. */
  onReachable: () => void;
  /** Pause before the first look after a failure, doubled per failure up to `retryMaxMs`. */
  retryMinMs?: number;
  retryMaxMs?: number;
  probe?: (endpoint: string) => Promise<string | null>;
}

export class RemoteEndpoints {
  readonly all: RemoteEndpoint[];
  private readonly retryMinMs: number;
  private readonly retryMaxMs: number;
  private readonly probe: (endpoint: string) => Promise<string | null>;
  private closed = false;
  /** Settles once every endpoint has been looked at once (at boot). */
  readonly looked: Promise<void>;

  constructor(
    urls: readonly string[],
    private readonly options: RemoteEndpointsOptions,
  ) {
    this.all = urls.map((url) => ({
      url,
      label: endpointLabel(url),
      reachable: null,
      detail: null,
      failures: 0,
      announced: false,
      refusedConnection: false,
    }));
    this.retryMinMs = options.retryMinMs ?? 1000;
    this.retryMaxMs = options.retryMaxMs ?? 30_000;
    this.probe = options.probe ?? probeEndpoint;
    // Looked at once at boot, so one that is down is said at once (and readiness knows) even before any capture.
    this.looked = Promise.all(this.all.map((endpoint) => this.look(endpoint))).then(() => {});
  }

  /**
   * The endpoint a new worker connects to: one known to answer, with the fewest workers on it; else
   * one not looked at yet; never one known to be down.
   */
  pick(load: (endpoint: RemoteEndpoint) => number): RemoteEndpoint | null {
    let best: { endpoint: RemoteEndpoint; rank: [number, number] } | null = null;
    for (const endpoint of this.all) {
      if (endpoint.reachable === false) continue;
      const rank: [number, number] = [endpoint.reachable ? 0 : 1, load(endpoint)];
      if (!best || rank[0] < best.rank[0] || (rank[0] === best.rank[0] && rank[1] < best.rank[1])) best = { endpoint, rank };
    }
    return best?.endpoint ?? null;
  }

  /** Some endpoint may take a worker now. */
  anyUsable(): boolean {
    return this.all.some((e) => e.reachable !== false);
  }

  /** A worker's browser connected through it. */
  connected(endpoint: RemoteEndpoint): void {
    endpoint.failures = 0;
    endpoint.refusedConnection = false;
    this.markReachable(endpoint);
  }

  /** A connection to it failed or closed: out until a look finds it answering again. */
  failed(endpoint: RemoteEndpoint, reason: string): void {
    this.fail(endpoint, reason, false);
  }

  private fail(endpoint: RemoteEndpoint, reason: string, byProbe: boolean): void {
    if (this.closed) return;
    // A socket error's code (ECONNREFUSED) says the same as a probe would: nothing listens there.
    endpoint.refusedConnection = !byProbe && !/^E[A-Z]+$/.test(reason);
    endpoint.failures++;
    endpoint.reachable = false;
    endpoint.detail = reason;
    if (!endpoint.announced) {
      endpoint.announced = true;
      this.options.log(
        `[capture] browser server ${endpoint.label} is not reachable (${reason}); its pages go to the other browser servers, and it is tried again in the background`,
      );
    }
    clearTimeout(endpoint.retry);
    const pause = Math.min(this.retryMaxMs, this.retryMinMs * 2 ** Math.min(endpoint.failures - 1, 20));
    endpoint.retry = setTimeout(() => void this.look(endpoint), pause);
    endpoint.retry.unref?.();
  }

  readiness(): RemoteReadiness {
    const endpoints = this.all.map((e) => ({ endpoint: e.label, reachable: e.reachable === true, detail: e.detail }));
    return { reachable: endpoints.filter((e) => e.reachable).length, total: endpoints.length, endpoints };
  }

  close(): void {
    this.closed = true;
    for (const endpoint of this.all) clearTimeout(endpoint.retry);
  }

  private async look(endpoint: RemoteEndpoint): Promise<void> {
    const problem = await this.probe(endpoint.url).catch((e: unknown) => String(e));
    if (this.closed) return;
    if (problem === null) this.markReachable(endpoint);
    else this.fail(endpoint, problem, true);
  }

  private markReachable(endpoint: RemoteEndpoint) {
    const was = endpoint.reachable;
    endpoint.reachable = true;
    endpoint.detail = null;
    clearTimeout(endpoint.retry);
    if (endpoint.announced && !endpoint.refusedConnection) {
      endpoint.announced = false;
      this.options.log(`[capture] browser server ${endpoint.label} is reachable again`);
    }
    if (was !== true) this.options.onReachable();
  }
}
