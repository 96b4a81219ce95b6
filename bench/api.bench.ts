// Authenticated API list throughput: GET /api/comparisons with a bearer token (a user with 10
// comparisons, as issue 10's target states it) on the real server vs a bare Bun.serve returning
// the same JSON body, side by side with wrk in one run. The server runs twice over: on its embedded
// SQLite file, and on PostgreSQL (a throwaway cluster on loopback, tests/support/postgres.ts),
// both measured against the same bare server in alternating rounds. Besides req/s it prints each
// server's CPU time per request (from /proc; on PostgreSQL the cluster's too), which a loaded
// machine disturbs far less than throughput.
// Run: bun bench/api.bench.ts   (BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_ROWS,
//   BENCH_MODES=embedded,postgres; needs wrk, and Debian's postgresql for the second mode)
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pgMissing, postgres, stopPostgres } from "#tests/support/postgres";
import { type RunningServer, startServer } from "#tests/support/server";
import { seedListUser } from "./list-user";
import { fmt, loadNow, startProc, verdict, type WrkResult, wrk } from "./lib";
import { cpuMicros, descendants } from "./proc";

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const COMPARISONS = Number(process.env.BENCH_ROWS ?? 10);
const MODES = (process.env.BENCH_MODES ?? "embedded,postgres").split(",").map((m) => m.trim());
const TARGETS: Record<string, number> = { embedded: 0.5, postgres: 0.25 };
/** Median by throughput; its own latencies come along with it. */
const medianOf = (rs: WrkResult[]) => [...rs].sort((x, y) => x.rps - y.rps)[Math.floor(rs.length / 2)]!;
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

/** CPU µs used so far by a PostgreSQL cluster: the postmaster, the backends it reaped, and those alive. */
function clusterCpuMicros(postmaster: number): number {
  const stat = readFileSync(`/proc/${postmaster}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime, stime, cutime, cstime: fields 14-17 of the line.
  const own = ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1e6) / 100;
  return own + descendants(postmaster).reduce((sum, p) => sum + (cpuMicros(p.pid) || 0), 0);
}

/** One wrk round, with the server's (and its database's) CPU time per answered request. */
function measured(pid: number, url: string, opts: Parameters<typeof wrk>[1], dbPid?: number) {
  const before = cpuMicros(pid);
  const dbBefore = dbPid ? clusterCpuMicros(dbPid) : 0;
  const r = wrk(url, opts);
  return {
    ...r,
    cpuUs: (cpuMicros(pid) - before) / r.requests,
    dbCpuUs: dbPid ? (clusterCpuMicros(dbPid) - dbBefore) / r.requests : 0,
  };
}
type Round = ReturnType<typeof measured>;

interface Mode {
  name: string;
  server: RunningServer;
  url: string;
  header: string;
  body: string;
  /** The headers it answered with. */
  headers: [string, string][];
  /** The PostgreSQL cluster's postmaster, whose CPU is counted beside the server's. */
  dbPid?: number;
  rounds: Round[];
  ratios: number[];
}

const tmp = mkdtempSync(join(tmpdir(), "di-api-bench-"));
const modes: Mode[] = [];
let bare: Awaited<ReturnType<typeof startProc>> | undefined;
let sameBytes: Awaited<ReturnType<typeof startProc>> | undefined;

/** Starts the server in one mode, seeds the list user and checks the answer. */
async function start(name: string, env: Record<string, string>, dbPid?: number): Promise<Mode> {
  // Its request log goes to a file, as a deployment's would go to a log shipper, not into this
  // process beside the server it measures.
  const server = await startServer({ env: { CAPTURE_LAZY: "", ...env }, logFile: join(tmp, `server-${name}.log`) });
  const mode: Mode = {
    name,
    server,
    url: `${server.url}/api/comparisons`,
    header: "",
    body: "",
    headers: [],
    dbPid,
    rounds: [],
    ratios: [],
  };
  modes.push(mode);
  const token = await seedListUser(fetch, server.url, COMPARISONS);
  mode.header = `Authorization: Bearer ${token}`;
  const sample = await fetch(mode.url, { headers: { authorization: `Bearer ${token}` } });
  if (!sample.ok) throw new Error(`${name}: GET /api/comparisons: ${sample.status}`);
  mode.body = await sample.text();
  if ((JSON.parse(mode.body) as unknown[]).length !== COMPARISONS) throw new Error(`${name}: unexpected list length`);
  mode.headers = [...sample.headers];
  return mode;
}

try {
  for (const name of MODES) {
    if (name === "embedded") await start(name, {});
    else if (name === "postgres") {
      if (pgMissing) {
        console.log(`postgres mode skipped: ${pgMissing}`);
        continue;
      }
      const pg = await postgres();
      const postmaster = Number(readFileSync(join(pg.dir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
      await start(name, { DATABASE_URL: await pg.freshDatabase(), JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123" }, postmaster);
    } else throw new Error(`BENCH_MODES: unknown mode ${name} (embedded, postgres)`);
  }
  if (!modes.length) throw new Error("no mode to run");
  const first = modes[0]!;
  const bodyFile = join(tmp, "body.json");
  await Bun.write(bodyFile, first.body);
  bare = await startProc(["bun", join(import.meta.dir, "bare-json-server.ts")], { NODE_ENV: "production", BODY_FILE: bodyFile }, "/");
  // Everything ours sends but what Bun adds itself (date, content-length).
  const sentHeaders = Object.fromEntries(first.headers.filter(([k]) => k !== "date" && k !== "content-length"));
  const headersFile = join(tmp, "headers.json");
  await Bun.write(headersFile, JSON.stringify(sentHeaders));
  sameBytes = await startProc(
    ["bun", join(import.meta.dir, "bare-json-server.ts")],
    { NODE_ENV: "production", BODY_FILE: bodyFile, HEADERS_FILE: headersFile },
    "/",
  );

  for (const m of modes) wrk(m.url, { seconds: 1, connections, header: m.header }); // warm up
  for (const u of [bare.url + "/", sameBytes.url + "/"]) wrk(u, { seconds: 1, connections });
  // Alternating rounds, medians: the machine is shared, and a load spike during one long window
  // would otherwise land on one side only.
  const base: Round[] = [];
  const same: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const m of modes) m.rounds.push(measured(m.server.proc.pid, m.url, { seconds, connections, header: m.header }, m.dbPid));
    base.push(measured(bare.proc.pid, bare.url + "/", { seconds, connections }));
    same.push(measured(sameBytes.proc.pid, sameBytes.url + "/", { seconds, connections }));
    for (const m of modes) m.ratios.push(m.rounds[r]!.rps / base[r]!.rps);
  }
  for (const m of modes) {
    const non2xx = m.rounds.reduce((n, r) => n + r.non2xx, 0);
    if (non2xx > 0) throw new Error(`${m.name}: ours answered ${non2xx} non-2xx responses`);
  }
  const b = medianOf(base);
  const c = medianOf(same);
  console.log(
    `GET /api/comparisons, ${COMPARISONS} rows (${modes.map((m) => `${m.name} ${m.body.length}`).join(", ")} bytes), wrk ${connections} connections, ${rounds} alternating rounds x ${seconds} s, medians; load average ${loadNow()}`,
  );
  for (const m of modes) console.log(`ours  ${m.name.padEnd(9)} bearer + list   ${fmt(medianOf(m.rounds))}`);
  console.log(`bare  Bun.serve JSON             ${fmt(b)}`);
  console.log(
    `bare  + our headers              ${fmt(c)}   (the same bytes as ${first.name}: our ${Object.keys(sentHeaders).length} headers and the body)`,
  );
  for (const m of modes) console.log(`per-round ratios ${m.name.padEnd(9)}  ${m.ratios.map((x) => x.toFixed(2)).join(" ")}`);
  const baseCpu = median(base.map((r) => r.cpuUs));
  for (const m of modes) {
    const cpu = median(m.rounds.map((r) => r.cpuUs));
    const db = m.dbPid ? `, PostgreSQL cluster ${median(m.rounds.map((r) => r.dbCpuUs)).toFixed(1)} µs` : "";
    console.log(`server CPU / request ${m.name.padEnd(9)} ours ${cpu.toFixed(1)} µs${db}; bare ${baseCpu.toFixed(1)} µs (medians)`);
  }
  console.log(
    `bare + our headers ${median(same.map((r) => r.cpuUs)).toFixed(1)} µs CPU / request; ${first.name} / same bytes = ${(medianOf(first.rounds).rps / c.rps).toFixed(2)} req/s (for reading, not the verdict)`,
  );
  // The verdicts stay on the stricter baseline, the body alone.
  for (const m of modes)
    verdict(`API list ${m.name} / bare Bun.serve JSON (req/s)`, medianOf(m.rounds).rps / b.rps, { atLeast: TARGETS[m.name]! });
} finally {
  bare?.proc.kill();
  sameBytes?.proc.kill();
  for (const m of modes) await m.server.stop();
  await stopPostgres();
  rmSync(tmp, { recursive: true, force: true });
}
