// Delivery with retries and backoff. The last error is kept for the delivery log.

export interface RetryOutcome {
  ok: boolean;
  attempts: number;
  lastError: string | null;
}

export interface RetryOptions {
  /** Waits before the 2nd, 3rd, … attempt; its length + 1 is the number of attempts. */
  backoffMs?: number[];
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_BACKOFF_MS = [2_000, 10_000, 60_000];

export async function withRetries(send: () => Promise<void>, opts: RetryOptions = {}): Promise<RetryOutcome> {
  const backoff = opts.backoffMs ?? DEFAULT_BACKOFF_MS;
  const sleep = opts.sleep ?? ((ms: number) => Bun.sleep(ms));
  let lastError: string | null = null;
  for (let attempt = 1; attempt <= backoff.length + 1; attempt++) {
    if (attempt > 1) await sleep(backoff[attempt - 2]!);
    try {
      await send();
      return { ok: true, attempts: attempt, lastError };
    } catch (err) {
      lastError = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    }
  }
  return { ok: false, attempts: backoff.length + 1, lastError };
}
