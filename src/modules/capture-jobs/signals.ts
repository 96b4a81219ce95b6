// How the instance driving a run hears of its capture jobs: the stages a capture reaches and "look
// now" (its answer is written, or it went dead). On PostgreSQL a NOTIFY on one channel, which every
// instance LISTENs on; a notification lost while a listening connection was down is made up for by
// the waiter's slow poll, and a re-subscription tells every waiter to look at once. SQLite is one
// process (decision 0023): the signal stays in it. One per database handle, shared by both sides.
import type { SqlDb } from "#server/db/sql";
import { captureSignalSchema, type CaptureSignal } from "./model";

export const CAPTURE_CHANNEL = "design_intel_capture";

export interface CaptureSignals {
  send(signal: CaptureSignal): Promise<void>;
  /** Once this resolves, signals sent from then on reach `watch`ers (PostgreSQL's LISTEN is in place). */
  ready(): Promise<void>;
  /** Calls `fn` with the signals of job `id` until the returned function is called. */
  watch(id: string, fn: (signal: CaptureSignal) => void): () => void;
}

const byDb = new WeakMap<SqlDb, CaptureSignals>();

export function captureSignals(db: SqlDb, log?: (msg: string, err?: unknown) => void): CaptureSignals {
  let signals = byDb.get(db);
  if (!signals) byDb.set(db, (signals = makeSignals(db, log)));
  return signals;
}

function makeSignals(db: SqlDb, log?: (msg: string, err?: unknown) => void): CaptureSignals {
  const watchers = new Map<string, Set<(signal: CaptureSignal) => void>>();
  const deliver = (signal: CaptureSignal) => {
    for (const fn of [...(watchers.get(signal.id) ?? [])]) {
      try {
        fn(signal);
      } catch (e) {
        log?.("capture signal: a listener failed", e);
      }
    }
  };
  const watch = (id: string, fn: (signal: CaptureSignal) => void) => {
    const set = watchers.get(id) ?? new Set();
    watchers.set(id, set.add(fn));
    return () => {
      set.delete(fn);
      if (set.size === 0) watchers.delete(id);
    };
  };

  if (db.dialect.name === "sqlite") {
    return { send: async (signal) => queueMicrotask(() => deliver(signal)), ready: async () => {}, watch };
  }

  let listening: Promise<void> | null = null;
  let subscribed = false;
  const receive = (payload: string) => {
    const parsed = captureSignalSchema.safeParse(JSON.parse(payload));
    if (parsed.success) deliver(parsed.data);
  };
  const ready = () =>
    (listening ??= db
      .listen(
        CAPTURE_CHANNEL,
        (payload) => {
          try {
            receive(payload);
          } catch (e) {
            log?.("capture signal: a notification that is not ours was ignored", e);
          }
        },
        () => {
          // Back after a drop: whatever was sent meanwhile is lost, so every waiter looks now.
          if (subscribed) for (const id of [...watchers.keys()]) deliver({ id, done: true });
          subscribed = true;
        },
      )
      .then(
        () => {},
        (e: unknown) => {
          // Asked again by the next capture; meanwhile waiters poll.
          listening = null;
          log?.("capture signal: LISTEN failed; waiting by polling", e);
        },
      ));
  return {
    send: async (signal) => void (await db.run("SELECT pg_notify($1, $2)", [CAPTURE_CHANNEL, JSON.stringify(signal)])),
    ready,
    watch,
  };
}
