// Authenticated API list throughput: GET /api/comparisons with a bearer token (a user with 10
// comparisons, as issue 10's target states it) on the real server vs a bare Bun.serve returning
// the same JSON body, side by side with wrk in one run. Besides req/s it prints each server's CPU
// time per request (from /proc), which a loaded machine disturbs far less than throughput.
// Run: bun bench/api.bench.ts   (BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_ROWS; needs wrk)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "#tests/support/server";
import { seedListUser } from "./list-user";
import { fmt, startProc, verdict, type WrkResult, wrk } from "./lib";
import { cpuMicros } from "./proc";

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const COMPARISONS = Number(process.env.BENCH_ROWS ?? 10);
/** Median by throughput; its own latencies come along with it. */
const medianOf = (rs: WrkResult[]) => [...rs].sort((x, y) => x.rps - y.rps)[Math.floor(rs.length / 2)]!;
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

/** One wrk round, with the server's CPU time per answered request. */
function measured(pid: number, url: string, opts: Parameters<typeof wrk>[1]) {
  const before = cpuMicros(pid);
  const r = wrk(url, opts);
  return { ...r, cpuUs: (cpuMicros(pid) - before) / r.requests };
}

const tmp = mkdtempSync(join(tmpdir(), "di-api-bench-"));
// Its request log goes to a file, as a deployment's would go to a log shipper, not into this
// process beside the server it measures.
const server = await startServer({ env: { CAPTURE_LAZY: "" }, logFile: join(tmp, "server.log") });
let bare: Awaited<ReturnType<typeof startProc>> | undefined;
let sameBytes: Awaited<ReturnType<typeof startProc>> | undefined;
try {
  const token = await seedListUser(fetch, server.url, COMPARISONS);
  const sample = await fetch(`${server.url}/api/comparisons`, { headers: { authorization: `Bearer ${token}` } });
  if (!sample.ok) throw new Error(`GET /api/comparisons: ${sample.status}`);
  const body = await sample.text();
  // Everything ours sends but what Bun adds itself (date, content-length).
  const sentHeaders = Object.fromEntries([...sample.headers].filter(([k]) => k !== "date" && k !== "content-length"));
  if ((JSON.parse(body) as unknown[]).length !== COMPARISONS) throw new Error("unexpected list length");
  const bodyFile = join(tmp, "body.json");
  await Bun.write(bodyFile, body);
  bare = await startProc(["bun", join(import.meta.dir, "bare-json-server.ts")], { NODE_ENV: "production", BODY_FILE: bodyFile }, "/");
  const headersFile = join(tmp, "headers.json");
  await Bun.write(headersFile, JSON.stringify(sentHeaders));
  sameBytes = await startProc(
    ["bun", join(import.meta.dir, "bare-json-server.ts")],
    { NODE_ENV: "production", BODY_FILE: bodyFile, HEADERS_FILE: headersFile },
    "/",
  );

  const header = `Authorization: Bearer ${token}`;
  const oursUrl = server.url + "/api/comparisons";
  for (const u of [oursUrl, bare.url + "/", sameBytes.url + "/"]) wrk(u, { seconds: 1, connections, header }); // warm up
  // Alternating rounds, medians: the machine is shared, and a load spike during one long window
  // would otherwise land on one side only.
  const ours: ReturnType<typeof measured>[] = [];
  const base: ReturnType<typeof measured>[] = [];
  const same: ReturnType<typeof measured>[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    ours.push(measured(server.proc.pid, oursUrl, { seconds, connections, header }));
    base.push(measured(bare.proc.pid, bare.url + "/", { seconds, connections }));
    same.push(measured(sameBytes.proc.pid, sameBytes.url + "/", { seconds, connections }));
    ratios.push(ours[r]!.rps / base[r]!.rps);
  }
  const non2xx = ours.reduce((n, r) => n + r.non2xx, 0);
  if (non2xx > 0) throw new Error(`ours answered ${non2xx} non-2xx responses`);
  const a = medianOf(ours);
  const b = medianOf(base);
  console.log(
    `GET /api/comparisons, ${COMPARISONS} rows (${body.length} bytes), wrk ${connections} connections, ${rounds} alternating rounds x ${seconds} s, medians`,
  );
  console.log(`ours  bearer + list    ${fmt(a)}`);
  console.log(`bare  Bun.serve JSON   ${fmt(b)}`);
  const c = medianOf(same);
  console.log(`bare  + our headers   ${fmt(c)}   (the same bytes: our ${Object.keys(sentHeaders).length} headers and the body)`);
  console.log(`per-round ratios       ${ratios.map((x) => x.toFixed(2)).join(" ")}`);
  const oursCpu = median(ours.map((r) => r.cpuUs));
  const baseCpu = median(base.map((r) => r.cpuUs));
  console.log(
    `server CPU / request   ours ${oursCpu.toFixed(1)} µs, bare ${baseCpu.toFixed(1)} µs (medians; ratio bare/ours ${(baseCpu / oursCpu).toFixed(2)})`,
  );
  const sameCpu = median(same.map((r) => r.cpuUs));
  console.log(
    `bare + our headers     ${sameCpu.toFixed(1)} µs CPU / request; ours / same bytes = ${(a.rps / c.rps).toFixed(2)} req/s (for reading, not the verdict)`,
  );
  // The verdict stays on the stricter baseline, the body alone.
  verdict("API list / bare Bun.serve JSON (req/s)", a.rps / b.rps, { atLeast: 0.5 });
} finally {
  bare?.proc.kill();
  sameBytes?.proc.kill();
  await server.stop();
  rmSync(tmp, { recursive: true, force: true });
}
