// What a PostgreSQL handle knows of the database's changes, for its change stamp
// (src/db/change-stamp.ts): its own writes, counted as they run, and every commit that writes,
// announced by migrations/pg/0028's triggers on CHANGES_CHANNEL and heard through a LISTEN. Each
// handle also NOTIFYs a ping of its own on the channel: hearing it back proves the LISTEN is live
// and has delivered every commit made before the ping was sent (PostgreSQL delivers notifications
// in commit order), which is what lets the stamp hold.
import { randomUUID } from "node:crypto";
import type { SQL } from "bun";

/** The channel of migrations/pg/0028's triggers: an empty payload, one per writing transaction. */
export const CHANGES_CHANNEL = "di_changes";

const PING = "ping ";

export interface PgChangesOptions {
  /** How often the handle pings itself through the channel. */
  pingEveryMs?: number;
  /** How long a commit may go unheard: past it without a ping heard back, the stamp holds no longer. */
  lagMs?: number;
  /** With no stamp looked at for this long, the LISTEN and pings stop until the next look. */
  idleMs: number;
}

export const PING_EVERY_MS = 500;
export const LISTEN_LAG_MS = 1_500;

export interface PgChanges {
  /** A statement of this handle that may have written has run, or a transaction that wrote ended. */
  wrote(): void;
  /**
   * A number that holds while no write has committed anywhere since the last look, as far as this
   * handle can know it; NaN (equal to nothing) while it cannot know it.
   */
  stamp(): number;
  /** Stops the LISTEN and the pings for good (the handle is closing). */
  close(): Promise<void>;
}

export function pgChanges(client: SQL, opts: PgChangesOptions): PgChanges {
  const pingEveryMs = opts.pingEveryMs ?? PING_EVERY_MS;
  const lagMs = opts.lagMs ?? LISTEN_LAG_MS;
  const id = randomUUID();
  // Own writes, commits heard and (re)subscriptions: what a held stamp is.
  let n = 0;
  /** When the latest of our pings heard back was sent: every commit before then has been heard. */
  let heardUpTo = -Infinity;
  let lastLook = -Infinity;
  let closed = false;
  /** Bumped at each stop, so what an earlier LISTEN delivers late counts for nothing. */
  let generation = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  let subscription: SQL.ListenSubscription | null = null;
  let subscribing = false;

  const ping = () => {
    const sentAt = performance.now();
    // A ping that fails (the database is away) is simply not heard: the stamp stops holding.
    client.unsafe("SELECT pg_notify($1, $2)", [CHANGES_CHANNEL, `${PING}${id} ${sentAt}`]).catch(() => {});
  };

  const subscribe = () => {
    if (subscribing || subscription) return;
    subscribing = true;
    const gen = generation;
    const heard = (payload: string) => {
      if (gen !== generation) return;
      if (!payload.startsWith(PING)) {
        n++;
        return;
      }
      const [from, at] = payload.slice(PING.length).split(" ");
      if (from === id) heardUpTo = Math.max(heardUpTo, Number(at));
    };
    // Initially and after each reconnect: commits made while the LISTEN was down went unheard, so
    // what was read before is dropped; the ping then shows when it is live.
    const listening = () => {
      if (gen !== generation) return;
      n++;
      ping();
    };
    client.listen(CHANGES_CHANNEL, heard, listening).then(
      (sub) => {
        subscribing = false;
        if (gen === generation) subscription = sub;
        else void sub.unlisten().catch(() => {});
      },
      // The database is away: the next tick tries again.
      () => void (subscribing = false),
    );
  };

  const stop = async () => {
    generation++;
    heardUpTo = -Infinity;
    if (timer) clearInterval(timer);
    timer = null;
    const sub = subscription;
    subscription = null;
    await sub?.unlisten().catch(() => {});
  };

  const tick = () => {
    // Nobody has looked for a while (an idle instance, a test's app left behind): let the
    // connection go, as the pool lets go of an idle one. The next look starts it again.
    if (performance.now() - lastLook > opts.idleMs) return void stop();
    if (subscription) ping();
    else subscribe();
  };

  const start = () => {
    timer = setInterval(tick, pingEveryMs);
    // Never what keeps a process alive.
    timer.unref();
    subscribe();
  };

  return {
    wrote: () => void n++,
    stamp() {
      const t = performance.now();
      lastLook = t;
      if (!timer && !closed) start();
      return t - heardUpTo <= lagMs ? n : NaN;
    },
    close: async () => {
      closed = true;
      await stop();
    },
  };
}
