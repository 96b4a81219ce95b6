// `check --server URL`: the same comparison, run by a Design Intel server with the caller's API
// key (a `run` key), so it stays in the key owner's list like any run.
import type { ComparisonDto, ComparisonReport } from "#server/modules/comparisons/model";
import type { CheckConfig } from "./config";
import { CheckRunError } from "./in-process";

/** How often the run's state is asked for; a run takes seconds to minutes. */
const POLL_MS = 1000;

export async function runOnServer(config: CheckConfig, server: string, key: string): Promise<ComparisonReport> {
  const base = server.replace(/\/+$/, "");
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
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
    const text = await res.text();
    if (!res.ok) {
      let message = text.slice(0, 200);
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? message;
      } catch {
        /* not JSON */
      }
      throw new CheckRunError(`${method} ${path} answered ${res.status}: ${message}`);
    }
    return JSON.parse(text) as T;
  }

  const comparison = await call<ComparisonDto>("POST", "/api/comparisons", { name: `design-intel check: ${config.site.label}` });
  for (const page of [config.site, ...config.competitors]) await call("POST", `/api/comparisons/${comparison.id}/targets`, page);
  await call("POST", `/api/comparisons/${comparison.id}/start`);
  for (;;) {
    const now = await call<ComparisonDto>("GET", `/api/comparisons/${comparison.id}`);
    if (now.status === "completed" || now.status === "failed") break;
    await Bun.sleep(POLL_MS);
  }
  const report = await call<ComparisonReport>("GET", `/api/comparisons/${comparison.id}/export?format=json`);
  const failed = report.targets.filter((t) => t.status !== "completed");
  if (failed.length) throw new CheckRunError(failed.map((t) => `${t.label} (${t.url}) could not be checked: ${t.error ?? t.status}`).join("; "));
  return report;
}
