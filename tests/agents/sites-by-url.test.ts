// Targets are sites by their URL, not by their host: pages on one host (here all on 127.0.0.1)
// are separate sites for trends and for component kits.
import { beforeEach, describe, expect, test } from "bun:test";
import { openDatabase, type Db } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import type { LiveMessage } from "#server/live/hub";
import { AgentLoop } from "#server/modules/agents/loop/loop";
import { siteSources } from "#server/modules/agents/loop/design-ninja";
import { siteOf } from "#server/modules/agents/logic/trend-mining";
import { agentsService } from "#server/modules/agents/service";
import { insertComparison, insertUser } from "./fixtures";

let db: Db;
let sent: LiveMessage[];
let loop: AgentLoop;

beforeEach(() => {
  db = openDatabase(":memory:");
  migrate(db);
  sent = [];
  loop = new AgentLoop({
    db: sqliteSql(db),
    emit: (message) => sent.push(message),
    now: () => Date.parse("2025-06-01T12:00:00Z"),
    log: () => {},
  });
});

describe("sites by URL", () => {
  test("siteOf keeps the path and query, and folds spellings of one page together", () => {
    expect(siteOf("http://127.0.0.1:4100/alpha/")).toBe("127.0.0.1:4100/alpha");
    expect(siteOf("http://127.0.0.1:4100/beta")).toBe("127.0.0.1:4100/beta");
    expect(siteOf("https://WWW.Example.com:443/")).toBe("example.com");
    expect(siteOf("https://example.com/pricing?b=2&a=1#plans")).toBe("example.com/pricing?a=1&b=2");
    expect(siteOf("https://example.com:8443/x")).toBe("example.com:8443/x");
    expect(siteOf("ftp://example.com/")).toBeNull();
    expect(siteOf("not a url")).toBeNull();
  });

  test("TrendHunter counts six pages on 127.0.0.1 as six sites", async () => {
    const u = insertUser(db);
    const paths = ["/a/", "/b/", "/c/", "/d/", "/e/", "/f/"];
    insertComparison(
      db,
      u,
      paths.map((p, i) => ({ url: `http://127.0.0.1:4100${p}`, isDark: i < 5 })),
    );
    const svc = agentsService({ db: sqliteSql(db) });
    await svc.saveTrendSettings({ ...(await svc.trendSettings()), confidenceThreshold: 70 });
    await loop.trendHunter.run();
    const dark = (await svc.trends({ id: u, role: "user" }, 20)).find((t) => t.key === "theme:dark");
    expect(dark).toBeDefined();
    expect(dark!.support).toBe(5);
    expect(dark!.sampleSize).toBe(6);
    expect(dark!.evidence.map((e) => e.host).sort()).toEqual(["/a", "/b", "/c", "/d", "/e"].map((p) => `127.0.0.1:4100${p}`));
    expect((await loop.ctx.agent("trend-hunter")).currentTask).toContain("Scanned 6 sites");
  });

  test("DesignNinja builds a kit per page, not one per host", async () => {
    const u = insertUser(db);
    insertComparison(db, u, [
      { url: "http://127.0.0.1:4100/alpha/", accent: "#e11d48" },
      { url: "http://127.0.0.1:4100/beta/", accent: "#16a34a" },
    ]);
    const sources = await siteSources(loop.ctx);
    expect(sources.map((s) => s.label).sort()).toEqual(["127.0.0.1:4100/alpha", "127.0.0.1:4100/beta"]);
    for (let i = 0; i < 17; i++) await loop.designNinja.run();
    const made = sent
      .filter((m) => m.type === "COMPONENT_GENERATED")
      .map((m) => m.payload as { sourceLabel: string; tokens: { primary: string } });
    expect(made).toHaveLength(16); // 2 sites x 4 kinds x 2 variants
    const byLabel = new Map(made.map((m) => [m.sourceLabel, m.tokens.primary]));
    expect(byLabel.get("127.0.0.1:4100/alpha")).toBe("#e11d48");
    expect(byLabel.get("127.0.0.1:4100/beta")).toBe("#16a34a");
  });
});
