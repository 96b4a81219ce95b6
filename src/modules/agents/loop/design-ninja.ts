// DesignNinja: one component per run, kit by kit: for each captured site (newest first, one kit
// per site per workspace) the four kinds in variants A and B, styled with that site's tokens. With no
// captures at all it builds one kit from the product's own tokens, labelled as such.
import type { Extraction } from "#server/modules/capture/model";
import { newId, nowIso } from "#server/lib/ids";
import { AGENT_IDS } from "../model";
import { buildComponent, COMPONENT_KINDS, KIND_LABELS, type ComponentKind, type VariantLabel } from "../logic/component-templates";
import { DEFAULT_SOURCE_LABEL, DEFAULT_TOKENS, tokensFromExtraction } from "../logic/design-tokens";
import { printTsx, renderSpec } from "../logic/jsx-tree";
import { hostOf, siteOf } from "../logic/trend-mining";
import { componentToDto, parseJson, type ComponentRow } from "../rows";
import { audienceFor, type AgentContext } from "./context";

const ID = AGENT_IDS.designNinja;
const NAME = "DesignNinja";
const VARIANTS: VariantLabel[] = ["A", "B"];

interface Source {
  key: string;
  label: string;
  host: string | null;
  ownerId: string | null;
  snapshotId: string | null;
  capturedAt: string | null;
}

const transpiler = new Bun.Transpiler({ loader: "tsx" });

/** True when the generated file parses and transpiles as TSX. */
export function compiles(code: string): boolean {
  try {
    transpiler.transformSync(code);
    return true;
  } catch {
    return false;
  }
}

export async function siteSources(ctx: AgentContext): Promise<Source[]> {
  const seen = new Set<string>();
  const out: Source[] = [];
  for (const r of await ctx.repo.desktopSnapshots()) {
    const site = siteOf(r.url);
    const host = hostOf(r.url);
    if (!site || !host) continue;
    const key = `${r.owner_id}:${site}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ key, label: site, host, ownerId: r.owner_id, snapshotId: r.snapshot_id, capturedAt: r.captured_at });
  }
  return out;
}

const DEFAULT_SOURCE: Source = {
  key: "default",
  label: DEFAULT_SOURCE_LABEL,
  host: null,
  ownerId: null,
  snapshotId: null,
  capturedAt: null,
};

export class DesignNinja {
  constructor(private readonly ctx: AgentContext) {}

  /** The next (source, kind, variant) nobody has built yet. */
  async next(): Promise<{ source: Source; kind: ComponentKind; variant: VariantLabel; kitSize: number; kitDone: number } | null> {
    const sites = await siteSources(this.ctx);
    const sources = sites.length ? sites : [DEFAULT_SOURCE];
    const have = await this.ctx.repo.componentKeys();
    for (const source of sources) {
      const todo: { kind: ComponentKind; variant: VariantLabel }[] = [];
      for (const kind of COMPONENT_KINDS)
        for (const variant of VARIANTS) if (!have.has(`${source.key}|${kind}|${variant}`)) todo.push({ kind, variant });
      if (todo.length) {
        const kitSize = COMPONENT_KINDS.length * VARIANTS.length;
        return { source, ...todo[0]!, kitSize, kitDone: kitSize - todo.length };
      }
    }
    return null;
  }

  async run(): Promise<void> {
    const { ctx } = this;
    const job = await this.next();
    if (!job) {
      await ctx.update(ID, { status: "idle", currentTask: "Every captured site has its component kit; waiting for new captures" });
      return;
    }
    const { source, kind, variant } = job;
    const extraction = source.snapshotId ? parseJson<Partial<Extraction> | null>(await ctx.repo.extraction(source.snapshotId), null) : null;
    const tokens = source.snapshotId && extraction ? tokensFromExtraction(extraction) : DEFAULT_TOKENS;
    const built = buildComponent({
      kind,
      variant,
      tokens,
      sourceHost: source.host,
      sourceLabel: source.label,
      capturedAt: source.capturedAt,
    });
    const code = printTsx(built.spec);
    const ok = compiles(code);
    const row: ComponentRow = {
      id: newId(),
      kind,
      variant,
      style: built.style,
      name: built.spec.name,
      file_name: built.fileName,
      source_label: source.label,
      source_key: source.key,
      snapshot_id: source.snapshotId,
      owner_id: source.ownerId,
      tokens: JSON.stringify(tokens),
      features: JSON.stringify(built.features),
      code,
      preview_html: renderSpec(built.spec),
      compiled: ok ? 1 : 0,
      created_at: nowIso(ctx.now()),
    };
    await ctx.repo.insertComponent(row);
    ctx.emit({ type: "COMPONENT_GENERATED", payload: componentToDto(row), agentId: ID }, audienceFor(source.ownerId));
    await ctx.activity.record({
      type: "component",
      status: ok ? "success" : "error",
      agentName: NAME,
      message: ok ? `Generated ${row.file_name}` : `Generated ${row.file_name}, but it does not compile`,
      details: `${KIND_LABELS[kind]}, variant ${variant} (${built.style}), styled with ${source.label}${source.host ? " tokens" : ""}.`,
      metadata: { componentId: row.id, kind, variant },
      userId: source.ownerId,
    });
    const stats = await ctx.repo.compileStats();
    await ctx.update(ID, {
      status: "active",
      // Agents are shared: a user's captured host stays out of the public task line.
      currentTask: `Built ${KIND_LABELS[kind].toLowerCase()} variant ${variant} (${job.kitDone + 1} of ${job.kitSize}) from ${source.host ? "a captured site's tokens" : DEFAULT_SOURCE_LABEL}`,
      completed: 1,
      accuracy: stats.total ? Math.round((stats.ok / stats.total) * 1000) / 10 : null,
      metadata: { accuracyMeans: "Share of generated files that compile", generated: stats.total },
    });
  }
}
