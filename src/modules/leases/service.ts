// One holder at a time for work a deployment must do once (the scheduler role): each instance
// that wants it keeps asking; the holder renews every third of the lease's length, and the others
// stand by until it lets go or stops renewing. A holder counts itself the holder only until a
// margin before its lease runs out, so when it stalls (a stopped process, an unreachable
// database) it has stopped acting before anyone else can start.
import type { SqlDb } from "#server/db/sql";
import { type LeaseRow, leaseRepository } from "./repository";

export interface LeaseState {
  held: boolean;
  /** Who holds it according to the database, when another does (or null: nobody, or unknown). */
  holder: string | null;
  /** Epoch ms the holder's lease runs out at. */
  until: number | null;
}

export interface LeaseKeeper {
  /** This instance holds the lease now, with time to spare: act only while this is true. */
  held(): boolean;
  state(): LeaseState;
  /** Starts asking (now, then every third of the lease). */
  start(): void;
  /** Stops asking and lets the lease go, so a standby takes over at its next ask. */
  stop(): Promise<void>;
}

export interface LeaseOptions {
  db: SqlDb;
  name: string;
  /** This instance, as the database and the console name it (host and process). */
  holder: string;
  ttlMs?: number;
  now?: () => number;
  /** Told each time this instance gains (true) or loses (false) the lease. */
  onChange?: (held: boolean) => void;
  log?: (message: string, err?: unknown) => void;
}

export const DEFAULT_LEASE_TTL_MS = 15_000;

/** Who holds the lease now, by the database (null: nobody, or its holder let it run out). */
export async function currentHolder(db: SqlDb, name: string, now: number = Date.now()): Promise<string | null> {
  const row = await leaseRepository(db).find(name);
  return row && row.until_ms > now ? row.holder : null;
}

export function leaseKeeper(opts: LeaseOptions): LeaseKeeper {
  const repo = leaseRepository(opts.db);
  const ttl = opts.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const now = opts.now ?? Date.now;
  // Stop acting this long before the lease runs out: a renewal late by up to a third of the lease is still in time.
  const margin = ttl / 3;
  let heldUntil = 0;
  let holding = false;
  let other: LeaseRow | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  let asking: Promise<void> = Promise.resolve();

  const held = () => holding && now() < heldUntil - margin;

  /** What onChange was last told. */
  let told = false;
  const tell = () => {
    const is = held();
    if (!is) holding = false;
    if (is !== told) {
      told = is;
      opts.onChange?.(is);
    }
  };

  const ask = async () => {
    try {
      const row = await repo.claim(opts.name, opts.holder, now(), ttl);
      if (row) {
        heldUntil = row.until_ms;
        holding = true;
        other = null;
      } else {
        holding = false;
        other = await repo.find(opts.name);
      }
    } catch (e) {
      // The database did not answer: keep acting only while the lease already taken is surely ours.
      opts.log?.(`lease ${opts.name}: could not renew`, e);
    }
    tell();
  };

  const loop = () => {
    if (!running) return;
    asking = ask().finally(() => {
      if (running) timer = setTimeout(loop, ttl / 3);
    });
  };

  return {
    held,
    state: () => ({
      held: held(),
      holder: held() ? opts.holder : (other?.holder ?? null),
      until: held() ? heldUntil : (other?.until_ms ?? null),
    }),
    start() {
      if (running) return;
      running = true;
      loop();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await asking;
      holding = false;
      tell();
      await repo.release(opts.name, opts.holder).catch((e: unknown) => opts.log?.(`lease ${opts.name}: could not release`, e));
    },
  };
}
