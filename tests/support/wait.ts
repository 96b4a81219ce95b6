// Waiting on a condition outside the browser (a file, a row, a request that reached a fixture).
// The bound is only there so a condition that never comes fails with its name, before bun's test
// timeout (which kills every process the file started and so breaks the tests after it): size it
// well inside the test's own timeout, and far above what the condition needs on a busy machine.

export async function waitFor<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs: number,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(everyMs);
  }
}
