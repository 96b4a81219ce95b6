// TrendHunter: every `frequency` seconds, mines the newest desktop captures (and the findings of
// analysed comparisons) for patterns most sites share. See logic/trend-mining.ts for the maths.
import type { Extraction } from "#server/modules/capture/model";
import { newId, nowIso } from "#server/lib/ids";
import { AGENT_IDS, type TrendSettings } from "../model";
import { minePatterns, normalizeFindingTitle, selectTrends, type MinedTrend, type SiteObservation, siteOf } from "../logic/trend-mining";
import type { ChangeHistory } from "#server/modules/changes/public";
import { changeViewPath, findSetMoves, type SetMove } from "../logic/set-moves";
import { parseJson, trendToDto } from "../rows";
import { readTrendSettings, TREND_SETTINGS_KEY } from "../settings";
import type { AgentContext } from "./context";

const ID = AGENT_IDS.trendHunter;
const NAME = "TrendHunter";
const VISIBLE_TEXT_CAP = 5000;
const WEEK_MS = 7 * 24 * 3600_000;
/** Moves already announced, so a scan every few minutes tells each one once. */
const REPORTED_CAP = 5000;

/** Snapshots never change, so their parsed (and trimmed) extraction is kept between scans. */
export class TrendHunter {
  private readonly cache = new Map<string, Partial<Extraction> | null>();
  private lastSummary = "";
  private readonly reported = new Set<string>();
  private latestMoves: SetMove[] = [];

  constructor(
    private readonly ctx: AgentContext,
    private readonly changes?: ChangeHistory,
  ) {}

  /** The moves of the last scan that one workspace may see (its own comparisons only). */
  movesFor(ownerId: string): SetMove[] {
    return this.latestMoves.filter((m) => m.ownerId === ownerId);
  }

  /**
   * Moves across each comparison's competitors this week, from the run history. Each is told once
   * to its workspace's activity feed, with a link to every site's change view; a move that gains a
   * site is told again with the new count.
   */
  async scanMoves(): Promise<SetMove[]> {
    if (!this.changes) return [];
    const { ctx } = this;
    const since = nowIso(ctx.now() - WEEK_MS);
    const targets = new Map<string, Set<string>>();
    for (const r of await ctx.repo.desktopSnapshots()) {
      const set = targets.get(r.comparison_id) ?? new Set<string>();
      set.add(r.target_id);
      targets.set(r.comparison_id, set);
    }
    const moves = findSetMoves(await this.changes.recentChanges(since), (id) => targets.get(id)?.size ?? 0, { window: "this week" });
    this.latestMoves = moves;
    for (const m of moves) {
      const key = `${m.ownerId}|${m.comparisonId}|${m.move}|${m.sites.map((s) => `${s.targetId}@${s.runId}`).join(",")}`;
      if (this.reported.has(key)) continue;
      if (this.reported.size >= REPORTED_CAP) this.reported.clear();
      this.reported.add(key);
      await ctx.activity.record({
        type: "trend",
        status: "info",
        agentName: NAME,
        userId: m.ownerId,
        message: `${m.title} in “${m.comparisonName}”`,
        details: m.sites.map((s) => `${s.label}: ${s.summary}`).join("\n"),
        metadata: {
          comparisonId: m.comparisonId,
          move: m.move,
          support: m.support,
          of: m.of,
          sites: m.sites.map((s) => ({
            targetId: s.targetId,
            label: s.label,
            url: s.url,
            runId: s.runId,
            link: changeViewPath(m.comparisonId, s),
          })),
        },
      });
    }
    return moves;
  }

  async settings(): Promise<TrendSettings> {
    return readTrendSettings(await this.ctx.repo.setting(TREND_SETTINGS_KEY));
  }

  private async extraction(snapshotId: string): Promise<Partial<Extraction> | null> {
    if (this.cache.has(snapshotId)) return this.cache.get(snapshotId)!;
    const raw = parseJson<Partial<Extraction> | null>(await this.ctx.repo.extraction(snapshotId), null);
    const trimmed: Partial<Extraction> | null =
      raw && typeof raw === "object"
        ? {
            viewport: raw.viewport,
            palette: raw.palette,
            typography: raw.typography,
            layout: raw.layout,
            elements: raw.elements ? { ...raw.elements, links: 0, linksAboveFold: 0 } : undefined,
            timing: raw.timing,
            copy: raw.copy
              ? {
                  ...raw.copy,
                  visibleText: typeof raw.copy.visibleText === "string" ? raw.copy.visibleText.slice(0, VISIBLE_TEXT_CAP) : "",
                }
              : undefined,
          }
        : null;
    this.cache.set(snapshotId, trimmed);
    return trimmed;
  }

  async observations(settings: TrendSettings): Promise<SiteObservation[]> {
    const rows = await this.ctx.repo.desktopSnapshots();
    const live = new Set(rows.map((r) => r.snapshot_id));
    for (const id of this.cache.keys()) if (!live.has(id)) this.cache.delete(id);
    const useFindings = settings.sources.includes("findings");
    const analysed = useFindings ? await this.ctx.repo.analysedComparisons() : new Set<string>();
    const byTarget = new Map<string, Set<string>>();
    if (useFindings)
      for (const f of await this.ctx.repo.findings()) {
        const set = byTarget.get(f.target_id) ?? new Set<string>();
        const t = normalizeFindingTitle(f.title);
        if (t) set.add(t);
        byTarget.set(f.target_id, set);
      }
    const out: SiteObservation[] = [];
    for (const r of rows) {
      const host = siteOf(r.url);
      const extraction = await this.extraction(r.snapshot_id);
      if (!host || !extraction) continue;
      out.push({
        host,
        snapshotId: r.snapshot_id,
        comparisonId: r.comparison_id,
        ownerId: r.owner_id,
        capturedAt: r.captured_at,
        extraction,
        findings: analysed.has(r.comparison_id) ? [...(byTarget.get(r.target_id) ?? [])] : null,
      });
    }
    return out;
  }

  async run(): Promise<void> {
    await this.scanTrends();
    try {
      await this.scanMoves();
    } catch (err) {
      // The history may be mid-migration or busy: trends still count as this scan's work.
      this.ctx.log("TrendHunter: could not read the run history", err);
    }
  }

  private async scanTrends(): Promise<void> {
    const { ctx } = this;
    const settings = await this.settings();
    const obs = await this.observations(settings);
    const hosts = new Set(obs.map((o) => o.host)).size;
    if (!obs.length) {
      await ctx.update(ID, {
        status: "idle",
        currentTask: "No captured sites yet: nothing to mine (waiting for comparisons)",
        confidence: null,
      });
      await this.note("empty", () =>
        ctx.activity.record({
          type: "trend",
          status: "info",
          agentName: NAME,
          message: "No data yet: TrendHunter needs captured sites to mine",
          details: "Run a comparison and the next scan will look at its captures.",
        }),
      );
      await this.persist([]);
      return;
    }
    const mined = minePatterns(obs, {
      types: settings.trendTypes,
      keywords: settings.customKeywords,
      useFindings: settings.sources.includes("findings"),
      useSnapshots: settings.sources.includes("snapshots"),
    });
    const selected = selectTrends(mined, settings.confidenceThreshold, settings.maxResults);
    const { discovered, faded } = await this.persist(selected, settings.aiDetectionConfidence);
    const meanConfidence = selected.length
      ? Math.round((selected.reduce((a, t) => a + t.confidence, 0) / selected.length) * 10) / 10
      : null;
    await ctx.update(ID, {
      status: "active",
      currentTask: `Scanned ${hosts} site${hosts === 1 ? "" : "s"}: ${selected.length} trend${selected.length === 1 ? "" : "s"} at ≥${settings.confidenceThreshold}% confidence (${mined.length} patterns checked)`,
      completed: 1,
      confidence: meanConfidence,
      metadata: { lastScan: nowIso(ctx.now()), sitesScanned: hosts, patternsChecked: mined.length, frequencySeconds: settings.frequency },
    });
    await this.note(`scan:${hosts}:${selected.length}:${discovered}:${faded}`, () =>
      ctx.activity.record({
        type: "trend",
        status: "info",
        agentName: NAME,
        message: `Scanned ${hosts} site${hosts === 1 ? "" : "s"} for design patterns`,
        details: `${mined.length} candidate patterns, ${selected.length} above the ${settings.confidenceThreshold}% confidence threshold.`,
        metadata: { sites: hosts, patterns: mined.length, trends: selected.length },
      }),
    );
  }

  /** Logs a summary only when it differs from the previous one, so a quiet system stays quiet. */
  private async note(summary: string, write: () => Promise<unknown>): Promise<void> {
    if (summary === this.lastSummary) return;
    this.lastSummary = summary;
    await write();
  }

  private async persist(selected: MinedTrend[], strongAt = 100): Promise<{ discovered: number; faded: number }> {
    const { ctx } = this;
    const at = nowIso(ctx.now());
    const active = new Map((await ctx.repo.activeTrends()).map((r) => [r.pattern_key, r]));
    let discovered = 0;
    for (const t of selected) {
      const fields = {
        title: t.title,
        description: t.description,
        support: t.support,
        sampleSize: t.sampleSize,
        share: t.share,
        direction: t.direction,
        directionBasis: JSON.stringify(t.directionBasis),
        confidence: t.confidence,
        strong: t.confidence >= strongAt,
        evidence: JSON.stringify(t.evidence),
        at,
      };
      if (active.has(t.key)) {
        await ctx.repo.updateTrend({ key: t.key, ...fields, rediscoveredAt: null });
        active.delete(t.key);
        continue;
      }
      if (await ctx.repo.trendByKey(t.key)) await ctx.repo.updateTrend({ key: t.key, ...fields, rediscoveredAt: at });
      else await ctx.repo.insertTrend({ id: newId(), key: t.key, category: t.type, ...fields });
      discovered++;
      const row = (await ctx.repo.trendByKey(t.key))!;
      ctx.emit({ type: "TREND_DISCOVERED", payload: trendToDto(row, null), agentId: ID }, { kind: "all" });
      await ctx.activity.record({
        type: "trend",
        status: "success",
        agentName: NAME,
        message: `Trend discovered: ${t.title}`,
        details: `${t.support} of ${t.sampleSize} sites (${Math.round(t.share * 100)}%), ${t.confidence}% confidence${t.direction ? `, ${t.direction}` : ""}.`,
        metadata: { trendId: row.id, key: t.key },
      });
    }
    for (const [key, row] of active) {
      await ctx.repo.deactivateTrend(key, at);
      await ctx.activity.record({
        type: "trend",
        status: "info",
        agentName: NAME,
        message: `Trend faded: ${row.title}`,
        details: "It no longer clears the confidence threshold on the current captures.",
        metadata: { trendId: row.id, key },
      });
    }
    return { discovered, faded: active.size };
  }
}
