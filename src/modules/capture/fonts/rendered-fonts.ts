// Which typefaces Chromium actually drew, as opposed to the families the CSS asked for: offline or
// behind a blocker, web fonts fail and the text is drawn in a fallback. The DevTools protocol
// reports the platform fonts used for each element's text with glyph counts, which weigh the
// families by how much text they drew.

import type { BrowserContext, CDPSession, Page } from "playwright-core";
import type { Extraction } from "../model";
import { familySlug, isGenericFamily, normaliseFamily } from "./font-names";

type Share = { family: string; share: number };
type Failed = NonNullable<Extraction["network"]>["failed"][number];

/** Elements asked about, longest text first: bounds the protocol round trips on huge pages. */
export const MAX_TEXT_ELEMENTS = 400;
const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "TITLE", "IFRAME", "svg"]);

interface DomNode {
  nodeId: number;
  nodeType: number;
  nodeName: string;
  nodeValue: string;
  children?: DomNode[];
  shadowRoots?: DomNode[];
}

/** Elements with their own non-blank text, with that text's length. */
function textElements(root: DomNode): { nodeId: number; chars: number }[] {
  const out: { nodeId: number; chars: number }[] = [];
  const stack: DomNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (SKIP.has(node.nodeName)) continue;
    let chars = 0;
    for (const child of node.children ?? []) {
      if (child.nodeType === 3) chars += child.nodeValue.replace(/\s+/g, "").length;
      else stack.push(child);
    }
    for (const shadow of node.shadowRoots ?? []) stack.push(shadow);
    if (chars > 0 && node.nodeType === 1) out.push({ nodeId: node.nodeId, chars });
  }
  return out;
}

/** Glyphs drawn per platform family, over the page's text elements (the longest MAX_TEXT_ELEMENTS). */
export async function readPlatformFonts(session: CDPSession, maxElements = MAX_TEXT_ELEMENTS): Promise<Share[]> {
  await session.send("DOM.enable");
  await session.send("CSS.enable");
  try {
    const { root } = await session.send("DOM.getDocument", { depth: -1, pierce: true });
    const elements = textElements(root as DomNode)
      .sort((a, b) => b.chars - a.chars)
      .slice(0, maxElements);
    const glyphs = new Map<string, number>();
    const answers = await Promise.all(
      elements.map((e) => session.send("CSS.getPlatformFontsForNode", { nodeId: e.nodeId }).catch(() => ({ fonts: [] }))),
    );
    for (const { fonts } of answers) for (const f of fonts) glyphs.set(f.familyName, (glyphs.get(f.familyName) ?? 0) + f.glyphCount);
    const total = [...glyphs.values()].reduce((a, b) => a + b, 0);
    if (total === 0) return [];
    return [...glyphs.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([family, n]) => ({ family, share: Math.round((n / total) * 10000) / 10000 }));
  } finally {
    await session.send("CSS.disable").catch(() => {});
    await session.send("DOM.disable").catch(() => {});
  }
}

/** The page's @font-face families and whether any face of each has loaded. */
export async function readFontFaces(page: Page): Promise<{ family: string; loaded: boolean }[]> {
  return page.evaluate(() => {
    const byFamily = new Map<string, boolean>();
    for (const face of document.fonts) {
      const family = face.family.replace(/^["']|["']$/g, "");
      byFamily.set(family, (byFamily.get(family) ?? false) || face.status === "loaded");
    }
    return [...byFamily].map(([family, loaded]) => ({ family, loaded }));
  });
}

/**
 * Declared families the page meant to load as web fonts (an @font-face for it, or a failed font
 * request that names it) and that were drawn in a fallback instead. A family that is simply not
 * installed here (a system font like Segoe UI) is not a failure of the page, so it is not listed.
 */
export function fontsNotLoaded(
  declared: Share[],
  rendered: Share[],
  faces: { family: string; loaded: boolean }[],
  failed: Failed[],
): Share[] {
  if (rendered.length === 0) return [];
  const drawn = new Set(rendered.map((r) => normaliseFamily(r.family)));
  const faceState = new Map<string, boolean>();
  for (const f of faces) faceState.set(normaliseFamily(f.family), (faceState.get(normaliseFamily(f.family)) ?? false) || f.loaded);
  const fontRequests = failed.filter((f) => f.type === "font" || f.type === "stylesheet");
  return declared.filter((d) => {
    if (isGenericFamily(d.family)) return false;
    const key = normaliseFamily(d.family);
    if (faceState.get(key) === true || drawn.has(key)) return false;
    const slug = familySlug(d.family);
    return (
      faceState.has(key) ||
      (slug.length >= 3 &&
        fontRequests.some((f) =>
          f.url
            .toLowerCase()
            .replace(/[^a-z0-9]/g, "")
            .includes(slug),
        ))
    );
  });
}

/** What the page drew its text in and its @font-face families' state; null when the protocol is unavailable. */
export async function readDrawnFonts(
  context: BrowserContext,
  page: Page,
): Promise<{ rendered: Share[]; faces: { family: string; loaded: boolean }[] } | null> {
  let session: CDPSession | null = null;
  try {
    session = await context.newCDPSession(page);
    const [rendered, faces] = await Promise.all([readPlatformFonts(session), readFontFaces(page)]);
    return { rendered, faces };
  } catch {
    return null;
  } finally {
    await session?.detach().catch(() => {});
  }
}

/** Rendered families and the declared ones that fell back; null when the protocol is unavailable. */
export async function readRenderedTypography(
  context: BrowserContext,
  page: Page,
  declared: Share[],
  failed: Failed[],
): Promise<{ rendered: Share[]; notLoaded: Share[] } | null> {
  const drawn = await readDrawnFonts(context, page);
  return drawn && { rendered: drawn.rendered, notLoaded: fontsNotLoaded(declared, drawn.rendered, drawn.faces, failed) };
}
