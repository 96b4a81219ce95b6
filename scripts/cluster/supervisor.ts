// Keeps a loopback deployment running until told to stop (scripts/cluster.sh): PostgreSQL, an S3
// endpoint, two browser servers and two of each role, as tests/support/cluster.ts starts them.
// Writes DIR/cluster.json once every instance answers; SIGTERM or SIGINT stops them all.
import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startCluster } from "#tests/support/cluster";

const { values } = parseArgs({
  options: {
    dir: { type: "string" },
    binary: { type: "string" },
    "allow-private": { type: "boolean", default: false },
  },
});
if (!values.dir) {
  console.error("supervisor: --dir is required");
  process.exit(2);
}
const dir = resolve(values.dir);
const cluster = await startCluster({
  dir,
  ...(values.binary ? { command: [resolve(values.binary)] } : {}),
  env: values["allow-private"] ? { ALLOW_PRIVATE_TARGETS: "1" } : {},
});
const state = join(dir, "cluster.json");
writeFileSync(state, `${JSON.stringify({ supervisor: process.pid, ...cluster.describe() }, null, 2)}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  rmSync(state, { force: true });
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
// An instance that exits on its own is reported; the rest keep running, as in a real deployment.
for (const i of cluster.instances)
  void i.server.proc.exited.then((code) => {
    if (!stopping) console.error(`supervisor: ${i.name} exited (${code}); its log: ${i.logFile}`);
  });
setInterval(() => {}, 1 << 30);
