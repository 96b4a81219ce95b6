import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { createFindingsStep } from "#server/modules/analysis/findings-step";
import { findingsFor, type RuleSnapshot } from "#server/modules/analysis/findings";
import { llmConfigFromEnv, parseReply, refineFindings, type LlmConfig } from "#server/modules/analysis/llm";
import { makeExtraction } from "./support";

const pages: RuleSnapshot[] = [
  {
    targetId: "t-alpha",
    label: "Alpha",
    viewport: "desktop",
    extraction: makeExtraction({ metaDescription: "", timing: { lcpMs: 3400 } }),
  },
  { targetId: "t-beta", label: "Beta", viewport: "desktop", extraction: makeExtraction({ timing: { lcpMs: 1100 } }) },
];
const rules = findingsFor(pages);

// The fake endpoint answers whatever the current test puts here.
let reply: () => Response = () => new Response("{}");
const seen: { auth: string | null; body: { model: string; messages: { role: string; content: string }[] } }[] = [];
let server: Server<undefined>;
let config: LlmConfig;

const chat = (content: string) => Response.json({ choices: [{ message: { role: "assistant", content } }] });

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (new URL(req.url).pathname !== "/v1/chat/completions" || req.method !== "POST") return new Response("nope", { status: 404 });
      seen.push({ auth: req.headers.get("authorization"), body: await req.json() });
      return reply();
    },
  });
  config = { baseUrl: `http://127.0.0.1:${server.port}/v1/`, apiKey: "sk-test", model: "tiny-model", timeoutMs: 500 };
});
afterAll(() => server.stop(true));

describe("llm refinement", () => {
  test("config comes from the environment only when URL and model are set", () => {
    expect(llmConfigFromEnv({ LLM_BASE_URL: undefined, LLM_API_KEY: undefined, LLM_MODEL: undefined })).toBeNull();
    expect(llmConfigFromEnv({ LLM_BASE_URL: "http://x/v1", LLM_API_KEY: undefined, LLM_MODEL: undefined })).toBeNull();
    expect(llmConfigFromEnv({ LLM_BASE_URL: "http://x/v1", LLM_API_KEY: "k", LLM_MODEL: "m" })).toEqual({
      baseUrl: "http://x/v1",
      apiKey: "k",
      model: "m",
    });
  });

  test("rewrites and additions are merged; rule findings and their evidence are never dropped", async () => {
    const target = rules.find((f) => f.group === "timing")!;
    reply = () =>
      chat(
        JSON.stringify({
          rewrites: [
            {
              id: target.id,
              title: "Alpha's hero takes 3.4 s to appear — three times Beta",
              fix: "Preload the hero image and serve it as AVIF.",
            },
            { id: "unknown", title: "x", fix: "y" },
          ],
          additions: [
            {
              targetId: "t-beta",
              viewport: "desktop",
              group: "copy",
              severity: "low",
              title: "Beta's CTA copy is generic",
              evidence: { "Beta CTA": "Start free trial" },
              fix: "Say what happens next: “Send my first invoice”.",
            },
            {
              targetId: "t-nobody",
              viewport: "desktop",
              group: "copy",
              severity: "low",
              title: "Invented target",
              evidence: { a: "b" },
              fix: "Dropped because the target does not exist.",
            },
          ],
        }),
      );
    const { findings, error } = await refineFindings(rules, pages, config);
    expect(error).toBeNull();
    const last = seen[seen.length - 1]!;
    expect(last.auth).toBe("Bearer sk-test");
    expect(last.body.model).toBe("tiny-model");
    expect(last.body.messages[1]!.content).toContain(target.id);

    expect(findings).toHaveLength(rules.length + 1);
    for (const rule of rules) {
      const kept = findings.find((f) => f.id === rule.id)!;
      expect(kept.evidence).toEqual(rule.evidence);
      expect(kept.source).toBe("rules");
    }
    expect(findings.find((f) => f.id === target.id)!.title).toBe("Alpha's hero takes 3.4 s to appear — three times Beta");
    const added = findings.find((f) => f.source === "llm")!;
    expect(added.targetId).toBe("t-beta");
    expect(added.evidence).toEqual({ "Beta CTA": "Start free trial" });
  });

  test("a fenced JSON answer is accepted; prose, wrong shapes and HTTP errors are not", async () => {
    expect(parseReply('```json\n{"rewrites":[],"additions":[]}\n```')).toEqual({ rewrites: [], additions: [] });
    expect(parseReply('Sure! Here you go: {"rewrites":[]}')).toBeNull();
    expect(parseReply('{"rewrites":[{"id":"x"}]}')).toBeNull();
    expect(
      parseReply(
        '{"additions":[{"targetId":"t","viewport":"tablet","group":"ux","severity":"low","title":"t","evidence":{"a":"b"},"fix":"f"}]}',
      ),
    ).toBeNull();

    for (const bad of [
      () => chat("I think the pages look great."),
      () => new Response("overloaded", { status: 503 }),
      () => Response.json({ choices: [] }),
    ]) {
      reply = bad;
      const result = await refineFindings(rules, pages, config);
      expect(result.findings).toEqual(rules);
      expect(result.error).not.toBeNull();
    }
  });

  test("a slow endpoint times out and the rule findings stand", async () => {
    reply = () => new Response(new ReadableStream({ start() {} }), { headers: { "content-type": "application/json" } });
    const result = await refineFindings(rules, pages, { ...config, timeoutMs: 150 });
    expect(result.error).toBe("LLM endpoint timed out");
    expect(result.findings).toEqual(rules);
  });

  test("an unreachable endpoint is not fatal", async () => {
    const result = await refineFindings(rules, pages, { ...config, baseUrl: "http://127.0.0.1:1/v1" });
    expect(result.findings).toEqual(rules);
    expect(result.error).toContain("LLM request failed");
  });

  test("the findings step runs rules alone without a model, and logs a failed model pass", async () => {
    expect(await createFindingsStep()(pages)).toEqual(rules);
    reply = () => new Response("nope", { status: 500 });
    const logs: string[] = [];
    const withModel = await createFindingsStep({ llm: config, log: (m) => logs.push(m) })(pages);
    expect(withModel).toEqual(rules);
    expect(logs[0]).toContain("500");
  });
});
