// `check --server URL`: the same comparison, run by a Design Intel server with the caller's API
// key (a `run` key), so it stays in the key owner's list like any run.
import type { Viewport } from "../../modules/capture/model";
import type { ComparisonDto, ComparisonReport } from "../../modules/comparisons/model";
import type { CheckConfig } from "./config";
import { assertCompleted, type CheckRun, CheckRunError, visualSnapshots } from "./run";

/** How often the run's state is asked for; a run takes seconds to minutes. */
const POLL_MS = 1000;

export async function runOnServer(config: CheckConfig, server: string, key: string): Promise<CheckRun> {
  const base = server.replace(/\/+$/, "");
  async function send(method: string, path: string, body?: unknown): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw new CheckRunError(`could not reach ${base} (${e instanceof Error ? e.message : String(e)})`);
    }
    if (res.ok) return res;
    const text = await res.text();
    let message = text.slice(0, 200);
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? message;
    } catch {
      /* not JSON */
    }
    throw new CheckRunError(`${method} ${path} answered ${res.status}: ${message}`);
  }
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => (await (await send(method, path, body)).json()) as T;

  const comparison = await call<ComparisonDto>("POST", "/api/comparisons", { name: `design-intel check: ${config.site.label}` });
  for (const page of [config.site, ...config.competitors]) await call("POST", `/api/comparisons/${comparison.id}/targets`, page);
  await call("POST", `/api/comparisons/${comparison.id}/start`);
  for (;;) {
    const now = await call<ComparisonDto>("GET", `/api/comparisons/${comparison.id}`);
    if (now.status === "completed" || now.status === "failed") break;
    await Bun.sleep(POLL_MS);
  }
  const report = await call<ComparisonReport>("GET", `/api/comparisons/${comparison.id}/export?format=json`);
  assertCompleted(report);
  const screenshots = new Map<Viewport, Uint8Array>();
  for (const { viewport, snapshot } of visualSnapshots(config, report))
    screenshots.set(viewport, new Uint8Array(await (await send("GET", snapshot.screenshotUrl)).arrayBuffer()));
  return { report, screenshots };
}
