// Authenticated API list throughput: GET /api/comparisons with a bearer token (a user with 20
// comparisons) on the real server vs a bare Bun.serve returning the same JSON body, side by side
// with wrk in one run. Run: bun bench/api.bench.ts   (BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONNECTIONS; needs wrk)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../tests/support/server";
import { fmt, startProc, verdict, type WrkResult, wrk } from "./lib";

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const COMPARISONS = 20;
/** Median by throughput; its own latencies come along with it. */
const medianOf = (rs: WrkResult[]) => [...rs].sort((x, y) => x.rps - y.rps)[Math.floor(rs.length / 2)]!;

const server = await startServer();
const tmp = mkdtempSync(join(tmpdir(), "di-api-bench-"));
let bare: Awaited<ReturnType<typeof startProc>> | undefined;
try {
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  // The first account is the admin; the measured user is an ordinary one, like most callers.
  await call("POST", "/api/auth/signup", undefined, { email: "admin@example.com", password: "password-1" });
  const { accessToken: token } = (await (await call("POST", "/api/auth/signup", undefined, { email: "bench@example.com", password: "password-1" })).json()) as { accessToken: string };
  for (let i = 0; i < COMPARISONS; i++) {
    await call("POST", "/api/comparisons", token, { name: `Competitor sweep ${i + 1}`, description: `Landing pages, round ${i + 1}` });
  }
  const body = await (await call("GET", "/api/comparisons", token)).text();
  if ((JSON.parse(body) as unknown[]).length !== COMPARISONS) throw new Error("unexpected list length");
  const bodyFile = join(tmp, "body.json");
  await Bun.write(bodyFile, body);
  bare = await startProc(["bun", join(import.meta.dir, "bare-json-server.ts")], { NODE_ENV: "production", BODY_FILE: bodyFile }, "/");

  const header = `Authorization: Bearer ${token}`;
  const oursUrl = server.url + "/api/comparisons";
  for (const u of [oursUrl, bare.url + "/"]) wrk(u, { seconds: 1, connections, header }); // warm up
  // Alternating rounds, medians: the machine is shared, and a load spike during one long window
  // would otherwise land on one side only.
  const ours: WrkResult[] = [];
  const base: WrkResult[] = [];
  for (let r = 0; r < rounds; r++) {
    ours.push(wrk(oursUrl, { seconds, connections, header }));
    base.push(wrk(bare.url + "/", { seconds, connections }));
  }
  const non2xx = ours.reduce((n, r) => n + r.non2xx, 0);
  if (non2xx > 0) throw new Error(`ours answered ${non2xx} non-2xx responses`);
  const a = medianOf(ours);
  const b = medianOf(base);
  console.log(`GET /api/comparisons, ${COMPARISONS} rows (${body.length} bytes), wrk ${connections} connections, ${rounds} alternating rounds x ${seconds} s, medians`);
  console.log(`ours  bearer + list    ${fmt(a)}`);
  console.log(`bare  Bun.serve JSON   ${fmt(b)}`);
  verdict("API list / bare Bun.serve JSON (req/s)", a.rps / b.rps, { atLeast: 0.5 });
} finally {
  bare?.proc.kill();
  await server.stop();
  rmSync(tmp, { recursive: true, force: true });
}
