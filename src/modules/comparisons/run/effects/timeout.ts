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
