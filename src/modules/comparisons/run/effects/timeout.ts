// A run's own time limits: backstops in case a worker never answers.
export class Timeout extends Error {}

export function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout(message)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

export const captureTimeoutMs = (tools: { captureTimeoutMs?: number }) => tools.captureTimeoutMs ?? 5 * 60_000;
export const scoreTimeoutMs = (tools: { scoreTimeoutMs?: number }) => tools.scoreTimeoutMs ?? 2 * 60_000;

/** Runs async steps one after another in call order, whatever order they would finish in alone. */
export type Turns = <T>(step: () => Promise<T>) => Promise<T>;
export function turns(): Turns {
  let last: Promise<unknown> = Promise.resolve();
  return (step) => {
    const next = last.then(step);
    last = next.catch(() => {});
    return next;
  };
}

/**
 * Runs at most `n` async steps at once, the others waiting their turn in call order. A run hands
 * the capture pool this many pages at a time: a run of many pages would otherwise fill its owner's
 * share of the capture queue (pool.ts) and have the rest refused.
 */
export type Slots = <T>(step: () => Promise<T>) => Promise<T>;
export function slots(n: number): Slots {
  let free = n;
  const waiting: (() => void)[] = [];
  return async (step) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await step();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}
