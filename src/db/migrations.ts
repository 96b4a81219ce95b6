// Each migration is imported as text so `bun build --compile` embeds it in the binary.
import m0001 from "../../migrations/0001_init.sql" with { type: "text" };
import m0002 from "../../migrations/0002_comparisons.sql" with { type: "text" };
import m0003 from "../../migrations/0003_agents.sql" with { type: "text" };
import m0004 from "../../migrations/0004_admin.sql" with { type: "text" };
import m0005 from "../../migrations/0005_watch_schedules.sql" with { type: "text" };
import m0006 from "../../migrations/0006_watch_alerts.sql" with { type: "text" };
import m0007 from "../../migrations/0007_health_probe.sql" with { type: "text" };
import m0008 from "../../migrations/0008_runs.sql" with { type: "text" };
import m0009 from "../../migrations/0009_api_key_scope.sql" with { type: "text" };
import m0010 from "../../migrations/0010_watch_digest.sql" with { type: "text" };
import m0011 from "../../migrations/0011_runs_finished.sql" with { type: "text" };
import m0012 from "../../migrations/0012_targets_owner_url.sql" with { type: "text" };
import m0013 from "../../migrations/0013_findings_rule.sql" with { type: "text" };
import m0014 from "../../migrations/0014_comparison_consent.sql" with { type: "text" };
import m0015 from "../../migrations/0015_site_secrets.sql" with { type: "text" };
import m0016 from "../../migrations/0016_share_links.sql" with { type: "text" };
import m0017 from "../../migrations/0017_oidc_identities.sql" with { type: "text" };
import m0018 from "../../migrations/0018_pages.sql" with { type: "text" };
import m0019 from "../../migrations/0019_watch_pages.sql" with { type: "text" };
import m0020 from "../../migrations/0020_jobs.sql" with { type: "text" };
import m0021 from "../../migrations/0021_workspaces.sql" with { type: "text" };
import m0022 from "../../migrations/0022_activity_workspace.sql" with { type: "text" };
import m0023 from "../../migrations/0023_leases.sql" with { type: "text" };
import m0024 from "../../migrations/0024_rate_windows.sql" with { type: "text" };
import m0025 from "../../migrations/0025_capture_results.sql" with { type: "text" };
import m0026 from "../../migrations/0026_jobs_claim_counter.sql" with { type: "text" };
import m0027 from "../../migrations/0027_run_driver.sql" with { type: "text" };
import m0028 from "../../migrations/0028_announce_changes.sql" with { type: "text" };

/**
 * A SQLite migration that rebuilds tables (SQLite cannot alter a foreign key in place) says so with
 * this line: the runner turns foreign keys off around its transaction, as SQLite's own procedure
 * for such changes asks, and checks every key before committing.
 */
export const FOREIGN_KEYS_OFF = "-- pragma: foreign_keys=off";

export const needsForeignKeysOff = (m: Migration) => m.sql.includes(FOREIGN_KEYS_OFF);

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  { version: 1, name: "0001_init", sql: m0001 },
  { version: 2, name: "0002_comparisons", sql: m0002 },
  { version: 3, name: "0003_agents", sql: m0003 },
  { version: 4, name: "0004_admin", sql: m0004 },
  { version: 5, name: "0005_watch_schedules", sql: m0005 },
  { version: 6, name: "0006_watch_alerts", sql: m0006 },
  { version: 7, name: "0007_health_probe", sql: m0007 },
  { version: 8, name: "0008_runs", sql: m0008 },
  { version: 9, name: "0009_api_key_scope", sql: m0009 },
  { version: 10, name: "0010_watch_digest", sql: m0010 },
  { version: 11, name: "0011_runs_finished", sql: m0011 },
  { version: 12, name: "0012_targets_owner_url", sql: m0012 },
  { version: 13, name: "0013_findings_rule", sql: m0013 },
  { version: 14, name: "0014_comparison_consent", sql: m0014 },
  { version: 15, name: "0015_site_secrets", sql: m0015 },
  { version: 16, name: "0016_share_links", sql: m0016 },
  { version: 17, name: "0017_oidc_identities", sql: m0017 },
  { version: 18, name: "0018_pages", sql: m0018 },
  { version: 19, name: "0019_watch_pages", sql: m0019 },
  { version: 20, name: "0020_jobs", sql: m0020 },
  { version: 21, name: "0021_workspaces", sql: m0021 },
  { version: 22, name: "0022_activity_workspace", sql: m0022 },
  { version: 23, name: "0023_leases", sql: m0023 },
  { version: 24, name: "0024_rate_windows", sql: m0024 },
  { version: 25, name: "0025_capture_results", sql: m0025 },
  { version: 26, name: "0026_jobs_claim_counter", sql: m0026 },
  { version: 27, name: "0027_run_driver", sql: m0027 },
  { version: 28, name: "0028_announce_changes", sql: m0028 },
];
