// Captured-site fixtures for the agents' tests: full Extraction objects with the knobs trend
// mining and token extraction look at, and rows written straight into the comparisons tables.
import type { Db } from "#server/db/connection";
import type { Extraction } from "#server/modules/capture/model";
import { newId } from "#server/lib/ids";

export interface SiteKnobs {
  url: string;
  isDark?: boolean;
  accent?: string;
  font?: string;
  heroCentered?: boolean | null;
  ctaAboveFold?: boolean;
  bytes?: number;
  lcpMs?: number | null;
  headline?: string;
  text?: string;
  background?: string;
  textColor?: string;
  radiusPx?: number;
  spacingPx?: number;
}

export function makeExtraction(k: SiteKnobs): Extraction {
  const isDark = k.isDark ?? false;
  const bg = k.background ?? (isDark ? "#0b0d12" : "#ffffff");
  const fg = k.textColor ?? (isDark ? "#f2f4f8" : "#1a1d23");
  const accent = k.accent ?? "#2563eb";
  const h1x = k.heroCentered === false ? 96 : 420;
  return {
    url: k.url,
    finalUrl: k.url,
    viewport: "desktop",
    title: `${new URL(k.url).hostname} home`,
    metaDescription: "",
    pageHeight: 3200,
    capturedHeight: 3200,
    palette: {
      dominant: [
        { hex: bg, share: 0.62 },
        { hex: accent, share: 0.08 },
        { hex: fg, share: 0.05 },
      ],
      text: [{ hex: fg, share: 0.9 }],
      background: [{ hex: bg, share: 0.95 }],
      buttons: [{ hex: accent, share: 1 }],
      isDark,
    },
    typography: {
      families: [{ family: k.font ?? "Inter", share: 0.9 }],
      sizeScale: [{ px: 16, share: 0.7 }],
      weights: [{ weight: 400, share: 0.8 }],
      headings: [{ level: 1, family: k.font ?? "Inter", sizePx: 56, weight: 700, lineHeightPx: 62 }],
      body: { family: `${k.font ?? "Inter"}, sans-serif`, sizePx: 16, weight: 400, lineHeightPx: 24 },
    },
    layout: {
      regions:
        k.heroCentered === null
          ? [{ kind: "header", box: { x: 0, y: 0, width: 1440, height: 72 } }]
          : [
              { kind: "header", box: { x: 0, y: 0, width: 1440, height: 72 } },
              { kind: "hero", box: { x: 0, y: 72, width: 1440, height: 620 } },
            ],
      columns: 3,
      radiusPx: k.radiusPx ?? 8,
      spacingPx: k.spacingPx ?? 64,
    },
    elements: {
      ctas: [
        {
          text: "Get started",
          box: { x: 600, y: k.ctaAboveFold === false ? 1400 : 420, width: 180, height: 48 },
          aboveFold: k.ctaAboveFold ?? true,
          href: "/signup",
          bg: accent,
          fg: "#ffffff",
        },
      ],
      links: 30,
      linksAboveFold: 8,
      forms: [],
      inputs: 0,
      images: 6,
      imagesAboveFold: 1,
      headings: [{ level: 1, text: k.headline ?? "Ship faster", box: { x: h1x, y: 200, width: 600, height: 120 }, aboveFold: true }],
    },
    copy: {
      headline: k.headline ?? "Ship faster",
      visibleText: k.text ?? "Ship faster with our platform.",
      wordCount: 300,
      readability: 60,
    },
    timing: {
      ttfbMs: 120,
      fcpMs: 800,
      lcpMs: k.lcpMs === undefined ? 1800 : k.lcpMs,
      cls: 0.02,
      domContentLoadedMs: 900,
      loadMs: 1500,
      bytes: k.bytes ?? 800_000,
      requests: 40,
      largestResource: null,
    },
    accessibility: { lowContrast: [], bodyContrast: 12, imagesWithoutAlt: 0, inputsWithoutLabel: 0 },
  };
}

export function insertUser(db: Db, email = `u${Math.random().toString(36).slice(2)}@example.com`, role: "user" | "admin" = "user"): string {
  const id = newId();
  db.query("INSERT INTO users (id, email, password_hash, role) VALUES (?, ?, 'x', ?)").run(id, email, role);
  return id;
}

/** One comparison owned by `ownerId` with one completed target (and a desktop snapshot) per site. */
export function insertComparison(
  db: Db,
  ownerId: string,
  sites: (SiteKnobs & { capturedAt?: string; findings?: string[] })[],
  opts: { name?: string; similarity?: number[] } = {},
): { comparisonId: string; targetIds: string[]; snapshotIds: string[] } {
  const comparisonId = newId();
  const at = new Date().toISOString();
  db.query(
    "INSERT INTO comparisons (id, owner_id, name, status, created_at, updated_at, completed_at) VALUES (?, ?, ?, 'completed', ?, ?, ?)",
  ).run(comparisonId, ownerId, opts.name ?? "Fixture comparison", at, at, at);
  const targetIds: string[] = [];
  const snapshotIds: string[] = [];
  sites.forEach((s, i) => {
    const targetId = newId();
    const snapshotId = newId();
    targetIds.push(targetId);
    snapshotIds.push(snapshotId);
    db.query(
      "INSERT INTO targets (id, comparison_id, owner_id, label, url, status, created_at) VALUES (?, ?, ?, ?, ?, 'completed', ?)",
    ).run(targetId, comparisonId, ownerId, `Site ${i + 1}`, s.url, at);
    const ex = makeExtraction(s);
    db.query(
      `INSERT INTO snapshots (id, target_id, comparison_id, owner_id, viewport, captured_at, screenshot_path, title, colors, width, height, extraction)
       VALUES (?, ?, ?, ?, 'desktop', ?, 'x.png', ?, ?, 1440, 3200, ?)`,
    ).run(
      snapshotId,
      targetId,
      comparisonId,
      ownerId,
      s.capturedAt ?? at,
      ex.title,
      JSON.stringify(ex.palette.dominant.map((d) => d.hex)),
      JSON.stringify(ex),
    );
    (s.findings ?? []).forEach((title, j) =>
      db
        .query(
          `INSERT INTO findings (id, comparison_id, owner_id, target_id, viewport, grp, severity, title, evidence, fix, source, position, created_at)
           VALUES (?, ?, ?, ?, 'desktop', 'ux', 'medium', ?, '{}', 'Fix it', 'rules', ?, ?)`,
        )
        .run(newId(), comparisonId, ownerId, targetId, title, j, at),
    );
  });
  (opts.similarity ?? []).forEach((sim) => {
    if (targetIds.length < 2) return;
    db.query(
      `INSERT INTO diffs (id, comparison_id, owner_id, viewport, target_a_id, target_b_id, color_similarity, layout_similarity, content_similarity, overall_similarity, components, created_at)
       VALUES (?, ?, ?, 'desktop', ?, ?, ?, ?, ?, ?, '{}', ?)`,
    ).run(newId(), comparisonId, ownerId, targetIds[0]!, targetIds[1]!, sim, sim, sim, sim, at);
  });
  return { comparisonId, targetIds, snapshotIds };
}
