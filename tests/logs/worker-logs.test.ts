// Worker threads log in the process's one format: a JSON line on stdout, tagged with the worker.
// Here a capture worker is given a browser that cannot start, in a process of its own whose stdout
// the test reads.
import { expect, test } from "bun:test";
import { join } from "node:path";

const script = `
import { CapturePool } from ${JSON.stringify(join(import.meta.dir, "../../src/modules/capture/browser/pool.ts"))};
const pool = new CapturePool({ concurrency: 1, chromiumPath: "/nonexistent/chromium", allowPrivate: true, log: () => {} });
pool.warm();
`;

test("a capture worker's failure to start Chromium is one JSON line from the capture worker", async () => {
  const proc = Bun.spawn(["bun", "-e", script], { stdout: "pipe", stderr: "pipe", env: { ...process.env, LOG_LEVEL: "info" } });
  let out = "";
  let line: Record<string, unknown> | undefined;
  try {
    for await (const chunk of proc.stdout) {
      out += new TextDecoder().decode(chunk);
      const lines = out
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      line = lines.find((l) => l.worker === "capture");
      if (line) break;
    }
  } finally {
    proc.kill();
    await proc.exited;
  }
  expect(line).toMatchObject({
    level: "error",
    worker: "capture",
    msg: "Chromium could not start",
    err: { message: expect.stringContaining("/nonexistent/chromium") },
  });
  expect(new Date(line!.time as string).toISOString()).toBe(line!.time as string);
  // Every byte on stdout was a JSON line (the parse above would have thrown otherwise).
  expect(out.trim().length).toBeGreaterThan(0);
}, 60_000);
