// Production hands Elysia no response validators (docs/decisions/0011): the routes' schemas still
// make the same OpenAPI document and the answers are the same; outside production every answer is
// still checked against its schema.
import { expect, test } from "bun:test";
import { join } from "node:path";

interface Probe {
  mode: string;
  listStatus: number;
  listNames: string[];
  checksResponses: boolean;
  doc: unknown;
}

async function probe(mode: "production" | "test"): Promise<Probe> {
  const proc = Bun.spawn(["bun", join(import.meta.dir, "../support/contract-probe.ts")], {
    env: { ...process.env, NODE_ENV: mode },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`probe (${mode}) exited ${code}: ${err}`);
  return JSON.parse(out.trim().split("\n").at(-1)!) as Probe;
}

test("production: no response checks, the same answers and the same OpenAPI document", async () => {
  const [prod, dev] = await Promise.all([probe("production"), probe("test")]);
  expect(prod.mode).toBe("production");
  expect(prod.checksResponses).toBe(false);
  expect(dev.checksResponses).toBe(true);
  expect(prod.listStatus).toBe(200);
  expect(prod.listNames).toEqual(["Probe"]);
  expect(prod.listNames).toEqual(dev.listNames);
  expect(Object.keys((prod.doc as { paths: object }).paths).length).toBeGreaterThan(50);
  expect(prod.doc).toEqual(dev.doc);
}, 60_000);
