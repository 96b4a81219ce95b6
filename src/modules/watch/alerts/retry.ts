// How an alert delivery is retried: the waits between its attempts. Each attempt is a run of the
// delivery's job (src/modules/jobs), so a wait is the job's backoff, kept in the database.

export interface RetryOptions {
  /** Waits before the 2nd, 3rd, … attempt; its length + 1 is the number of attempts. */
  backoffMs?: number[];
  /** How a caller waiting for its deliveries waits for a retry (tests record it instead of sleeping). */
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_BACKOFF_MS = [2_000, 10_000, 60_000];
