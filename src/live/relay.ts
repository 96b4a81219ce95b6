// Live messages across instances. Each `serve` holds only its own sockets; a run started through
// one instance may be watched on a socket of another, and a sign-out on one must close that
// session's sockets on all. On PostgreSQL every instance LISTENs on one channel and sends what its
// hub publishes there as well; SQLite is one process, so it needs no relay.
import type { SqlDb } from "#server/db/sql";
import { randomToken } from "#server/lib/ids";
import type { Audience, LiveMessage } from "./hub";

/** Which sockets a disconnect closes, as data (it crosses processes): all conditions given must hold. */
export interface SocketSelector {
  userId?: string;
  sessionId?: string;
  /** Every socket but operators' (maintenance mode). */
  nonAdmins?: boolean;
}

export type RelayEvent =
  { kind: "publish"; message: LiveMessage; to: Audience } | { kind: "disconnect"; select: SocketSelector; reason: string; code: number };

export interface LiveRelay {
  /** Sends an event to every other instance, after those sent before it; resolves once the database took it. */
  send(event: RelayEvent): Promise<void>;
  close(): Promise<void>;
}

export const RELAY_CHANNEL = "design_intel_live";

// NOTIFY's payload is at most 8000 bytes. A message is cut into parts of at most PART_CHARS
// characters (4 bytes each at worst, plus the envelope), all sent in one transaction: PostgreSQL
// delivers a transaction's notifications together and in order, so parts never interleave with
// another message's.
const PART_CHARS = 1800;
/** Parts of a message whose last part never came (a listener that reconnected midway) are dropped after this. */
const PARTIAL_TTL_MS = 30_000;

interface Part {
  /** The sending instance. */
  f: string;
  /** The message's number at that instance. */
  m: number;
  /** This part's index, and how many there are. */
  i: number;
  n: number;
  d: string;
}

/**
 * Listens on the relay channel and sends there. `deliver` receives each event another instance
 * sent (never this one's own). `onResubscribed` runs when the listening connection came back after
 * a drop: events sent meanwhile were missed.
 */
export async function postgresRelay(
  db: SqlDb,
  deliver: (event: RelayEvent) => void,
  opts: { log?: (message: string, err?: unknown) => void; onResubscribed?: () => void } = {},
): Promise<LiveRelay> {
  const self = randomToken(9);
  let sent = 0;
  const partial = new Map<string, { parts: string[]; got: number; at: number }>();
  let subscribed = false;

  const receive = (payload: string) => {
    let part: Part;
    try {
      part = JSON.parse(payload) as Part;
    } catch {
      return opts.log?.("live relay: a notification that is not ours was ignored");
    }
    if (part.f === self) return;
    let text = part.d;
    if (part.n > 1) {
      const key = `${part.f}:${part.m}`;
      const now = Date.now();
      for (const [k, p] of partial) if (now - p.at > PARTIAL_TTL_MS) partial.delete(k);
      const p = partial.get(key) ?? { parts: new Array<string>(part.n).fill(""), got: 0, at: now };
      partial.set(key, p);
      p.parts[part.i] = part.d;
      if (++p.got < part.n) return;
      partial.delete(key);
      text = p.parts.join("");
    }
    try {
      deliver(JSON.parse(text) as RelayEvent);
    } catch (e) {
      opts.log?.("live relay: delivering an event failed", e);
    }
  };

  const subscription = await db.listen(RELAY_CHANNEL, receive, () => {
    if (subscribed) opts.onResubscribed?.();
    subscribed = true;
  });

  const sendOne = async (event: RelayEvent) => {
    const text = JSON.stringify(event);
    const m = ++sent;
    const n = Math.max(1, Math.ceil(text.length / PART_CHARS));
    const notify = (t: SqlDb, i: number) =>
      t.run("SELECT pg_notify($1, $2)", [
        RELAY_CHANNEL,
        JSON.stringify({ f: self, m, i, n, d: text.slice(i * PART_CHARS, (i + 1) * PART_CHARS) } satisfies Part),
      ]);
    if (n === 1) return void (await notify(db, 0));
    await db.tx(async (t) => {
      for (let i = 0; i < n; i++) await notify(t, i);
    });
  };
  // One send at a time, in call order: the pool would otherwise commit a run's "completed" before
  // the progress sent just ahead of it, and the other instances would show them the wrong way round.
  let tail: Promise<void> = Promise.resolve();
  return {
    send(event) {
      const next = tail.then(() => sendOne(event));
      tail = next.catch(() => {});
      return next;
    },
    close: () => subscription.unlisten(),
  };
}
