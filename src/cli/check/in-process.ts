// `check` without a server: a throwaway DATA_DIR and the server's own run tools (capture pool,
// analyser, findings step) and comparisons service in this process, so the numbers are the ones the
// product would show for the same pages.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServices } from "#server/app";
import { poolRunTools } from "#server/boot/run-tools";
import { openStorage } from "#server/boot/storage";
import type { Env } from "#server/env";
import { HttpError } from "#server/http/errors";
import { randomToken } from "#server/lib/ids";
import { findChromium } from "#server/lib/chromium";
import { createAnalyser } from "#server/modules/analysis";
import { CapturePool } from "#server/modules/capture/browser/pool";
import type { Viewport } from "#server/modules/capture/model";
import type { ComparisonReport } from "#server/modules/comparisons/model";
import type { CheckConfig } from "./config";
import { assertCompleted, type CheckRun, CheckRunError, visualSnapshots } from "./run";

export async function runInProcess(config: CheckConfig, env: Env): Promise<CheckRun> {
  const dataDir = mkdtempSync(join(tmpdir(), "design-intel-check-"));
  // Always the embedded database, in its own throwaway folder, whatever DATABASE_URL says.
  const { db, secret } = await openStorage(dataDir, {});
  const log = (msg: string, err?: unknown) => console.error(msg, err ?? "");
  const pool = new CapturePool({
    concurrency: env.CAPTURE_CONCURRENCY,
    chromiumPath: findChromium(env.CHROMIUM_PATH),
    // The pages named in a CI config are usually a preview on localhost; this process serves nobody else.
    allowPrivate: true,
    navigationTimeoutMs: env.CAPTURE_NAV_TIMEOUT_MS,
    totalTimeoutMs: env.CAPTURE_TOTAL_TIMEOUT_MS,
    timingSamples: env.CAPTURE_TIMING_SAMPLES,
    mobileTimingProfile: env.CAPTURE_MOBILE_PROFILE,
  });
  pool.warm();
  const analyser = createAnalyser();
  try {
    const services = createServices({
      db,
      // Its screenshots are thrown away with dataDir: never into the server's object store.
      env: { ...env, DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: true, STORAGE_URL: undefined },
      secret,
      log,
      runTools: { ...poolRunTools(pool, analyser, env, log), publish: () => {}, recordActivity: () => {} },
    });
    const user = await services.auth.createAccount({ email: "check@localhost.invalid", password: randomToken(24) }, { admin: false });
    const comparison = await services.comparisons.create(user.id, { name: `design-intel check: ${config.site.label}`, description: null });
    await services.comparisons.addTarget(user.id, comparison.id, config.site);
    for (const c of config.competitors) await services.comparisons.addTarget(user.id, comparison.id, c);
    await services.comparisons.start(user.id, comparison.id);
    await services.comparisons.whenIdle();

    const file = await services.comparisons.exportReport(user.id, comparison.id, "json");
    const report = JSON.parse(String(file.body)) as ComparisonReport;
    assertCompleted(report);
    const screenshots = new Map<Viewport, Uint8Array>();
    for (const { viewport, snapshot } of visualSnapshots(config, report))
      screenshots.set(viewport, await Bun.file(await services.comparisons.screenshotPath(user.id, snapshot.id)).bytes());
    return { report, screenshots };
  } catch (e) {
    // What the service refuses (a URL it will not capture, say) is the config's problem, said as the app says it.
    if (e instanceof HttpError) throw new CheckRunError(e.message);
    throw e;
  } finally {
    await pool.close();
    analyser.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
