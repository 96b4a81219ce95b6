// The downloadable report. Names, labels, titles, copy and evidence all come from users or from
// the captured pages (attacker-controlled), so every value goes through esc() and the document
// forbids scripts with its own CSP; images are inlined so the file works offline.
import type { Viewport } from "#server/modules/capture/model";
import type { ComparisonReport, SnapshotDto, TargetDto } from "./model";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const esc = (value: unknown): string => String(value ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c]!);

const pct = (n: number) => `${Math.round(n * 100)}%`;
const isHex = (s: string) => /^#[0-9a-f]{6}$/i.test(s);
const safeHref = (url: string) => {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
};

export function reportFilename(name: string, format: "json" | "html"): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "comparison";
  return `${slug}-report.${format}`;
}

/**
 * The same JSON, with <, >, & and the JS line separators as \u escapes: the captured copy is
 * attacker-written, and no byte of the file should read as markup if anything ever sniffs or embeds it.
 */
export const renderJsonReport = (report: ComparisonReport): string =>
  JSON.stringify(report, null, 2).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

const CSS = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1c2024;background:#f9f9fb}
main{max-width:1200px;margin:0 auto;padding:32px 24px}
h1{margin:0 0 4px;font-size:28px}h2{margin:32px 0 12px;font-size:20px}h3{margin:16px 0 8px;font-size:16px}
.muted{color:#60646c}.badge{display:inline-block;padding:2px 8px;border-radius:999px;font-size:12px;font-weight:600;background:#e8e8ec}
.completed{background:#d6f1df;color:#18794e}.failed{background:#ffdbdc;color:#ce2c31}.running,.capturing{background:#d5efff;color:#0d74ce}
table{border-collapse:collapse;width:100%;background:#fff;border-radius:8px;overflow:hidden}
th,td{text-align:left;padding:8px 12px;border-bottom:1px solid #e8e8ec;vertical-align:top}th{background:#f0f0f3;font-size:13px}
.shots{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:16px}
figure{margin:0;background:#fff;border:1px solid #e8e8ec;border-radius:8px;padding:12px}
figure img{width:100%;height:auto;display:block;border:1px solid #e8e8ec;max-height:900px;object-fit:cover;object-position:top}
.swatches{display:flex;gap:4px;margin-top:8px}.swatch{width:22px;height:22px;border-radius:4px;border:1px solid #0002}
.finding{background:#fff;border:1px solid #e8e8ec;border-radius:8px;padding:12px 16px;margin-bottom:12px}
.high{border-left:4px solid #ce2c31}.medium{border-left:4px solid #f76b15}.low{border-left:4px solid #8d8d8d}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}dt{color:#60646c}dd{margin:0}
`;

/** A page other than the home page, or a dark capture, is named after the viewport ("pricing /pricing · dark"); the home page in light as before. */
function variantOf(x: { role?: string; path?: string | null; colorScheme?: string }): string {
  const role = x.role ?? "home";
  const parts = [role === "home" ? null : [role, x.path].filter(Boolean).join(" "), x.colorScheme === "dark" ? "dark" : null].filter(
    Boolean,
  );
  return parts.length > 0 ? ` · ${parts.join(" · ")}` : "";
}

function snapshotFigure(s: SnapshotDto, target: TargetDto | undefined, image: string | null): string {
  const swatches = s.colors
    .filter(isHex)
    .slice(0, 8)
    .map((c) => `<span class="swatch" title="${esc(c)}" style="background:${c}"></span>`)
    .join("");
  return `<figure>
<figcaption><strong>${esc(target?.label ?? "Unknown website")}</strong> <span class="badge">${esc(`${s.viewport}${variantOf(s)}`)}</span>${s.step ? ` <span class="muted">${esc(`Stopped at step ${s.step.index}: ${s.step.error}`)}</span>` : ""}
<div class="muted">${esc(s.title)}</div><div class="muted">Captured ${esc(s.capturedAt)} · ${esc(s.width)}×${esc(s.height)} px</div></figcaption>
${image ? `<img alt="${esc(`Screenshot of ${target?.label ?? "website"} (${s.viewport})`)}" src="${image}">` : `<p class="muted">No screenshot available</p>`}
<div class="swatches">${swatches}</div>
</figure>`;
}

/** `images` maps snapshot id to a data: URI built by the server from its own PNG bytes. */
export function renderHtmlReport(report: ComparisonReport, images: Map<string, string>): string {
  const { comparison: c, targets } = report;
  const byId = new Map(targets.map((t) => [t.id, t]));
  const label = (id: string) => byId.get(id)?.label ?? "Removed website";

  const targetRows = targets
    .map((t) => {
      const href = safeHref(t.url);
      const link = href ? `<a href="${esc(href)}" rel="noopener noreferrer">${esc(t.url)}</a>` : esc(t.url);
      return `<tr><td>${esc(t.label)}</td><td>${link}</td><td><span class="badge ${esc(t.status)}">${esc(t.status)}</span></td><td>${esc(t.error ?? "")}</td></tr>`;
    })
    .join("");

  const viewports: Viewport[] = ["desktop", "mobile"];
  const shots = viewports
    .map((v) => {
      const list = report.snapshots.filter((s) => s.viewport === v);
      if (list.length === 0) return "";
      return `<h3>${v === "desktop" ? "Desktop" : "Mobile"}</h3><div class="shots">${list
        .map((s) => snapshotFigure(s, byId.get(s.targetId), images.get(s.id) ?? null))
        .join("")}</div>`;
    })
    .join("");

  const diffRows = report.diffs
    .map(
      (d) =>
        `<tr><td>${esc(label(d.targetAId))} vs ${esc(label(d.targetBId))}</td><td>${esc(`${d.viewport}${variantOf(d)}`)}</td><td>${pct(d.colorSimilarity)}</td><td>${pct(d.layoutSimilarity)}</td><td>${pct(d.contentSimilarity)}</td><td><strong>${pct(d.overallSimilarity)}</strong></td></tr>`,
    )
    .join("");

  const findings = report.findings
    .map((f) => {
      const evidence = Object.entries(f.evidence)
        .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`)
        .join("");
      return `<div class="finding ${esc(f.severity)}">
<div><span class="badge">${esc(f.group)}</span> <span class="badge">${esc(f.severity)}</span> <span class="muted">${esc(label(f.targetId))} · ${esc(`${f.viewport}${variantOf(f)}`)}</span></div>
<h3>${esc(f.title)}</h3>${evidence ? `<dl>${evidence}</dl>` : ""}<p><strong>Fix:</strong> ${esc(f.fix)}</p></div>`;
    })
    .join("");

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(c.name)} — Design Intel report</title>
<style>${CSS}</style></head>
<body><main>
<h1>${esc(c.name)}</h1>
${c.description ? `<p class="muted">${esc(c.description)}</p>` : ""}
<p><span class="badge ${esc(c.status)}">${esc(c.status)}</span>${c.error ? ` <span class="muted">${esc(c.error)}</span>` : ""}</p>
<p class="muted">Exported ${esc(report.exportedAt)}${c.completedAt ? ` · analysis finished ${esc(c.completedAt)}` : ""}</p>
<h2>Websites (${targets.length})</h2>
<table><thead><tr><th>Label</th><th>URL</th><th>Status</th><th>Note</th></tr></thead><tbody>${targetRows || `<tr><td colspan="4" class="muted">No websites added.</td></tr>`}</tbody></table>
<h2>Similarity</h2>
${diffRows ? `<table><thead><tr><th>Pair</th><th>Viewport</th><th>Colour</th><th>Layout</th><th>Content</th><th>Overall</th></tr></thead><tbody>${diffRows}</tbody></table>` : `<p class="muted">No similarity scores yet. Run the analysis with at least 2 websites.</p>`}
<h2>Findings (${report.findings.length})</h2>
${findings || `<p class="muted">No findings yet.</p>`}
<h2>Screenshots</h2>
${shots || `<p class="muted">No screenshots captured yet.</p>`}
</main></body></html>`;
}
