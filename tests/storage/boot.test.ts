// The real server with STORAGE_URL: it boots onto a bucket that takes a write and says so in
// readiness; onto a bucket that does not exist, or credentials the store refuses, it stops at once
// with one fatal line naming the problem. Its working folder (under TMPDIR) goes when it stops.
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { SERVER_START_MS, startServer } from "#tests/support/server";
import { useS3Server } from "#tests/support/s3-server";

const s3 = useS3Server();
const tmp = () => s3.tempDir();

/** The fatal line of a server that refused to start. */
async function refusedBoot(env: Record<string, string>) {
  const tmpDir = tmp();
  const error = await startServer({ env: { ...s3.env("boot"), TMPDIR: tmpDir, ...env } }).then(
    async (s) => {
      await s.stop();
      return null;
    },
    (e: Error) => e.message,
  );
  expect(error).toStartWith("server exited early (1)");
  const fatal = error!
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { level: string; msg: string })
    .filter((l) => l.level === "fatal");
  expect(readdirSync(tmpDir)).toEqual([]);
  return fatal.map((l) => l.msg);
}

test(
  "a bucket that takes a write: the server starts, says where its files go, and readiness names the store",
  async () => {
    const tmpDir = tmp();
    const server = await startServer({ env: { ...s3.env("boot"), TMPDIR: tmpDir } });
    try {
      const ready = await (await fetch(`${server.url}/api/health/ready`)).json();
      expect(ready.checks.storage).toEqual({ ok: true, detail: `s3 ${s3.endpoint}/${s3.bucket}/boot` });
      expect(server.output()).toContain(`files kept in s3 ${s3.endpoint}/${s3.bucket}/boot`);
      expect(readdirSync(tmpDir).filter((n) => n.startsWith("design-intel-work-"))).toHaveLength(1);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(readdirSync(tmpDir).filter((n) => n.startsWith("design-intel-work-"))).toEqual([]);
  },
  SERVER_START_MS + 20_000,
);

test(
  "a bucket that does not exist, or refused credentials: one fatal line, exit 1",
  async () => {
    expect(await refusedBoot({ STORAGE_URL: "s3://no-such-bucket" })).toEqual([
      `object storage: the bucket "no-such-bucket" does not exist at ${s3.endpoint}`,
    ]);
    const refused = await refusedBoot({ AWS_ACCESS_KEY_ID: "NOT-A-KEY" });
    expect(refused).toHaveLength(1);
    expect(refused[0]).toStartWith(`object storage: ${s3.endpoint}/${s3.bucket}/boot refused the credentials (InvalidAccessKeyId`);
  },
  2 * SERVER_START_MS + 20_000,
);
