// What broke on the page while a visitor loaded it: failed requests grouped by host and what they
// were for (so the finding can say what the visitor loses), and console errors.

import { familySlug } from "#server/modules/capture/public";
import type { Extraction } from "#server/modules/capture/model";
import { quote } from "../format";
import type { Rule } from "./types";

type Failed = NonNullable<Extraction["network"]>["failed"][number];

/** What a visitor loses when a resource of this kind fails, worst first. */
type Loss = "script" | "stylesheet" | "icons" | "font" | "image" | "media" | "frame" | "data" | "other";
const LOSS_ORDER: Loss[] = ["script", "stylesheet", "icons", "font", "image", "media", "frame", "data", "other"];
const CONSEQUENCE: Record<Loss, string> = {
  script: "features that need these scripts may not work",
  stylesheet: "content is shown partly unstyled",
  icons: "icons will be missing",
  font: "text is drawn in a fallback font",
  image: "images will be missing",
  media: "video or audio will not play",
  frame: "an embedded frame (a map, video or widget) stays empty",
  data: "content the page loads with its scripts may be missing",
  other: "parts of the page may be missing",
};

const ICON_FONT = /awesome|icon|glyph|material[-+_ ]?symbols|ionicons|feather|bootstrap-icons/i;
const FONT_CSS_HOST = /^(fonts\.googleapis\.com|use\.typekit\.net|fonts\.bunny\.net|fast\.fonts\.net|cloud\.typography\.com)$/i;

export function hostOf(url: string): string {
  return URL.parse(url)?.hostname || url.slice(0, 60);
}

/** Font stylesheets (Google Fonts' CSS) fail like fonts do; icon fonts lose icons, not typefaces. */
export function lossOf(f: Failed): Loss {
  const host = hostOf(f.url);
  switch (f.type) {
    case "script":
      // Icon kits (Font Awesome's all.js) draw icons from script.
      return ICON_FONT.test(f.url) ? "icons" : "script";
    case "font":
      return ICON_FONT.test(f.url) ? "icons" : "font";
    case "stylesheet":
      if (ICON_FONT.test(f.url)) return "icons";
      return FONT_CSS_HOST.test(host) ? "font" : "stylesheet";
    case "image":
      return "image";
    case "media":
      return "media";
    case "document":
      return "frame"; // the page's own document never reaches this list

    case "xhr":
    case "fetch":
    case "eventsource":
    case "websocket":
      return "data";
    default:
      return "other";
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Failed requests by what they cost the visitor, each with the hosts that served them. */
export function groupFailures(failed: Failed[]): { loss: Loss; count: number; hosts: Map<string, number>; reasons: Set<string> }[] {
  const groups = new Map<Loss, { loss: Loss; count: number; hosts: Map<string, number>; reasons: Set<string> }>();
  for (const f of failed) {
    const loss = lossOf(f);
    const g = groups.get(loss) ?? { loss, count: 0, hosts: new Map(), reasons: new Set() };
    g.count++;
    const host = hostOf(f.url);
    g.hosts.set(host, (g.hosts.get(host) ?? 0) + 1);
    g.reasons.add(f.reason);
    groups.set(loss, g);
  }
  return [...groups.values()].sort((a, b) => LOSS_ORDER.indexOf(a.loss) - LOSS_ORDER.indexOf(b.loss));
}

const hostList = (hosts: Map<string, number>, max = 3) => {
  const sorted = [...hosts.entries()].sort((a, b) => b[1] - a[1]);
  const shown = sorted
    .slice(0, max)
    .map(([h]) => h)
    .join(", ");
  return sorted.length > max ? `${shown} and ${plural(sorted.length - max, "more host")}` : shown;
};

const failedRequests: Rule = {
  id: "failed-requests",
  scope: "page",
  run({ page }) {
    const network = page.extraction.network;
    if (!network || network.failedCount <= 0 || network.failed.length === 0) return null;
    const groups = groupFailures(network.failed);
    const allHosts = new Map<string, number>();
    for (const f of network.failed) allHosts.set(hostOf(f.url), (allHosts.get(hostOf(f.url)) ?? 0) + 1);
    const worst = groups[0]!;
    const consequences = groups.slice(0, 3).map((g) => CONSEQUENCE[g.loss]);
    const evidence: Record<string, string> = {};
    for (const g of groups) {
      evidence[`${page.label} failed ${g.loss === "icons" ? "icon" : g.loss === "frame" ? "embedded frame" : g.loss} requests`] =
        `${g.count} from ${hostList(g.hosts)} (${[...g.reasons].slice(0, 2).join(", ")}): ${CONSEQUENCE[g.loss]}`;
    }
    if (network.failedCount > network.failed.length) evidence[`${page.label} failed requests in all`] = String(network.failedCount);
    const severity =
      worst.loss === "script" || worst.loss === "stylesheet" || network.failedCount >= 10
        ? "high"
        : worst.loss === "other" || worst.loss === "data"
          ? "low"
          : "medium";
    return {
      group: "ux",
      severity,
      title: `${plural(network.failedCount, "request")} failed on ${page.label}: ${hostList(allHosts, 2)} — ${consequences.join("; ")}`,
      evidence,
      fix: `Make the failing resources load for every visitor: serve them from your own domain (self-host fonts and libraries) or fix their URLs, and check them from outside your network — ${CONSEQUENCE[worst.loss]} until then.`,
    };
  },
};

const consoleErrors: Rule = {
  id: "console-errors",
  scope: "page",
  run({ page }) {
    const entries = page.extraction.console ?? [];
    if (entries.length === 0) return null;
    const exceptions = entries.filter((e) => e.level === "exception");
    const evidence: Record<string, string> = {};
    entries
      .slice(0, 3)
      .forEach(
        (e, i) =>
          (evidence[`${page.label} ${e.level === "exception" ? "uncaught exception" : "console error"} ${i + 1}`] = quote(e.text, 120)),
      );
    return {
      group: "ux",
      severity: exceptions.length > 0 ? "medium" : "low",
      title: `${page.label} logs ${plural(entries.length, "error")} in the browser console${exceptions.length > 0 ? `, ${plural(exceptions.length, "uncaught exception")}` : ""}`,
      evidence,
      fix: "Open the page with the browser's developer tools and fix the errors: an uncaught exception stops the script that threw it, so whatever it was setting up (menus, forms, sliders) does not work.",
    };
  },
};

/**
 * The failed font or font-stylesheet request whose URL names the family (Roboto+Slab, roboto-slab,
 * RobotoSlab-Bold.woff2). Only a named one: blaming an unrelated failed font would be a guess.
 */
export function failedRequestFor(family: string, failed: Failed[]): Failed | null {
  const slug = familySlug(family);
  if (slug.length < 3) return null;
  return (
    failed.find(
      (f) =>
        (f.type === "font" || f.type === "stylesheet") &&
        f.url
          .toLowerCase()
          .replace(/[^a-z0-9]/g, "")
          .includes(slug),
    ) ?? null
  );
}

const pct = (share: number) => `${Math.round(share * 100)}%`;

const fontNotLoaded: Rule = {
  id: "font-not-loaded",
  scope: "page",
  run({ page }) {
    const { notLoaded, rendered } = page.extraction.typography;
    if (!notLoaded || notLoaded.length === 0 || !rendered || rendered.length === 0) return null;
    const failed = page.extraction.network?.failed ?? [];
    const first = notLoaded[0]!;
    const request = failedRequestFor(first.family, failed);
    const evidence: Record<string, string> = {};
    for (const n of notLoaded.slice(0, 3)) {
      const r = failedRequestFor(n.family, failed);
      evidence[`${page.label} declares ${n.family}`] =
        `for ${pct(n.share)} of the text; never loaded${r ? ` (${r.url} — ${r.reason})` : ""}`;
    }
    evidence[`${page.label} drawn in`] = rendered
      .slice(0, 3)
      .map((r) => `${r.family} ${pct(r.share)}`)
      .join(", ");
    const names = notLoaded
      .slice(0, 3)
      .map((n) => n.family)
      .join(", ");
    return {
      group: "design",
      severity: first.share >= 0.3 ? "high" : "medium",
      title: `${names} never loaded on ${page.label}: its text is drawn in ${rendered[0]!.family}`,
      evidence,
      fix: request
        ? `Make ${first.family} load: ${request.url} failed (${request.reason}). Self-host the font files next to the page, and keep a fallback in the font-family list whose metrics are close.`
        : `Make ${first.family} load: check its @font-face src URLs and formats (woff2), or self-host the files, and keep a fallback whose metrics are close.`,
    };
  },
};

export const pageProblemRules: Rule[] = [failedRequests, consoleErrors, fontNotLoaded];
