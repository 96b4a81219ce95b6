// Optional language-model pass over the rule findings, via any OpenAI-compatible
// /chat/completions endpoint (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL). The model may reword a
// finding's title and fix and suggest a few more findings; it can never remove or alter the
// evidence of a rule finding. Anything unexpected (timeout, HTTP error, non-JSON, wrong shape)
// leaves the rule findings exactly as they were: the product is complete without a model.

import { z } from "zod";
import type { Env } from "#server/env";
import { sha256 } from "#server/lib/ids";
import type { Finding } from "#server/modules/capture/model";
import type { RuleSnapshot } from "./findings/types";

export interface LlmConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
  /** Injected in tests. */
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_ADDITIONS = 8;

export function llmConfigFromEnv(env: Pick<Env, "LLM_BASE_URL" | "LLM_API_KEY" | "LLM_MODEL">): LlmConfig | null {
  if (!env.LLM_BASE_URL || !env.LLM_MODEL) return null;
  return { baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, model: env.LLM_MODEL };
}

const text = (max: number) => z.string().trim().min(1).max(max);

const replySchema = z.object({
  rewrites: z.array(z.object({ id: z.string(), title: text(200), fix: text(600) })).default([]),
  additions: z
    .array(
      z.object({
        targetId: z.string(),
        viewport: z.enum(["desktop", "mobile"]),
        group: z.enum(["design", "ux", "copy", "timing"]),
        severity: z.enum(["high", "medium", "low"]),
        title: text(200),
        evidence: z
          .record(text(80), text(200))
          .refine((e) => Object.keys(e).length > 0 && Object.keys(e).length <= 8, "evidence needs 1-8 entries"),
        fix: text(600),
      }),
    )
    .default([]),
});

export type LlmReply = z.infer<typeof replySchema>;

const SYSTEM_PROMPT = `You are a senior web designer reviewing competitor websites.
You receive measured data about each page and findings produced by deterministic rules.
Reply with ONE JSON object and nothing else, shaped:
{"rewrites":[{"id":"<finding id>","title":"...","fix":"..."}],
 "additions":[{"targetId":"...","viewport":"desktop|mobile","group":"design|ux|copy|timing","severity":"high|medium|low","title":"...","evidence":{"<measure>":"<value>"},"fix":"..."}]}
Rewrites make a title or fix clearer and more specific; never change the facts.
Additions must be backed by the measured data you were given, quoted in "evidence". At most ${MAX_ADDITIONS} additions.`;

function pageSummary(p: RuleSnapshot) {
  const e = p.extraction;
  return {
    targetId: p.targetId,
    label: p.label,
    viewport: p.viewport,
    title: e.title,
    metaDescription: e.metaDescription,
    headline: e.copy.headline,
    wordCount: e.copy.wordCount,
    readability: Math.round(e.copy.readability),
    copyExcerpt: e.copy.visibleText.slice(0, 600),
    ctas: e.elements.ctas.slice(0, 5).map((c) => ({ text: c.text, aboveFold: c.aboveFold, bg: c.bg, fg: c.fg })),
    palette: e.palette.dominant.slice(0, 6),
    fonts: e.typography.families.slice(0, 4),
    bodyFont: e.typography.body,
    pageHeight: e.pageHeight,
    timing: { lcpMs: e.timing.lcpMs, fcpMs: e.timing.fcpMs, cls: e.timing.cls, bytes: e.timing.bytes, requests: e.timing.requests },
    accessibility: {
      bodyContrast: e.accessibility.bodyContrast,
      imagesWithoutAlt: e.accessibility.imagesWithoutAlt,
      inputsWithoutLabel: e.accessibility.inputsWithoutLabel,
    },
  };
}

/** Strict: the whole message must be one JSON object (a single ```json fence around it is tolerated). */
export function parseReply(content: string): LlmReply | null {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  let raw: unknown;
  try {
    raw = JSON.parse(fenced ? fenced[1]! : content);
  } catch {
    return null;
  }
  const parsed = replySchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export function mergeReply(findings: Finding[], pages: RuleSnapshot[], reply: LlmReply): Finding[] {
  const rewrites = new Map(reply.rewrites.map((r) => [r.id, r]));
  const merged = findings.map((f) => {
    const r = rewrites.get(f.id);
    return r ? { ...f, title: r.title, fix: r.fix } : f;
  });
  const known = new Set(pages.map((p) => `${p.targetId}|${p.viewport}`));
  const seen = new Set(merged.map((f) => f.id));
  for (const a of reply.additions.slice(0, MAX_ADDITIONS)) {
    if (!known.has(`${a.targetId}|${a.viewport}`)) continue;
    const id = sha256(`llm|${a.targetId}|${a.viewport}|${a.title.toLowerCase()}`).slice(0, 24);
    if (seen.has(id)) continue;
    seen.add(id);
    merged.push({ id, ...a, source: "llm" });
  }
  return merged;
}

export interface RefineResult {
  findings: Finding[];
  /** Why the model's answer was not used, for the log; null when it was. */
  error: string | null;
}

export async function refineFindings(findings: Finding[], pages: RuleSnapshot[], config: LlmConfig): Promise<RefineResult> {
  const doFetch = config.fetch ?? fetch;
  const url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const body = {
    model: config.model,
    temperature: 0.2,
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      {
        role: "user",
        content: JSON.stringify({
          pages: pages.map(pageSummary),
          findings: findings.map((f) => ({
            id: f.id,
            targetId: f.targetId,
            viewport: f.viewport,
            group: f.group,
            severity: f.severity,
            title: f.title,
            evidence: f.evidence,
            fix: f.fix,
          })),
        }),
      },
    ],
  };
  try {
    const res = await doFetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(config.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      redirect: "error",
    });
    if (!res.ok) return { findings, error: `LLM endpoint answered ${res.status}` };
    const json = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
    const content = json.choices?.[0]?.message?.content;
    if (typeof content !== "string") return { findings, error: "LLM reply has no message content" };
    const reply = parseReply(content);
    if (!reply) return { findings, error: "LLM reply is not the expected JSON" };
    return { findings: mergeReply(findings, pages, reply), error: null };
  } catch (e) {
    const name = e instanceof Error ? e.name : "";
    return {
      findings,
      error: name === "TimeoutError" || name === "AbortError" ? "LLM endpoint timed out" : `LLM request failed: ${String(e)}`,
    };
  }
}
