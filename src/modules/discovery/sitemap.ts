// Sitemaps (sitemaps.org protocol) read from text discovery fetched itself: XML `<urlset>` and
// `<sitemapindex>` parsed by a maintained XML parser (fast-xml-parser, which never fetches
// anything), plain-text sitemaps (one URL a line), and gzip undone here under a size cap.
import { gunzipSync } from "node:zlib";
import { XMLParser } from "fast-xml-parser";

export type SitemapContent = { kind: "urlset"; urls: string[] } | { kind: "index"; sitemaps: string[] };

export class SitemapError extends Error {}

const parser = new XMLParser({
  ignoreAttributes: true,
  // Namespaced spellings (<sm:urlset>) are the same elements.
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name, jpath) => jpath === "urlset.url" || jpath === "sitemapindex.sitemap",
  // A sitemap has no use for DOCTYPE entities: a handful, small, so a crafted file cannot blow up.
  processEntities: { enabled: true, maxEntityCount: 20, maxEntitySize: 200, maxExpandedLength: 10_000 },
});

const GZIP_MAGIC = [0x1f, 0x8b] as const;

export const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];

/**
 * The bytes as the sitemap's text: gunzipped when they start with gzip's magic number (a `.xml.gz`
 * file, whatever its content type says), refusing anything that unpacks past `maxBytes`.
 */
export function sitemapText(bytes: Uint8Array, maxBytes: number): string {
  let plain = bytes;
  if (isGzip(bytes)) {
    try {
      plain = gunzipSync(bytes, { maxOutputLength: maxBytes });
    } catch (e) {
      const code = e && typeof e === "object" && "code" in e ? e.code : null;
      if (code === "ERR_BUFFER_TOO_LARGE") throw new SitemapError(`unpacks to more than ${Math.round(maxBytes / 1024)} KiB`);
      throw new SitemapError("is not valid gzip");
    }
  }
  return new TextDecoder().decode(plain);
}

const locs = (entries: unknown): string[] => {
  if (!Array.isArray(entries)) return [];
  const out: string[] = [];
  for (const entry of entries) {
    const loc = entry && typeof entry === "object" ? (entry as { loc?: unknown }).loc : null;
    if (typeof loc === "string" && loc !== "") out.push(loc);
  }
  return out;
};

/** Reads a sitemap or a sitemap index. Throws SitemapError for anything else (an HTML page, broken XML). */
export function parseSitemap(text: string): SitemapContent {
  const body = text.replace(/^\uFEFF/, "").trim();
  if (!body.startsWith("<")) {
    // The protocol's text format: one absolute URL per line, nothing else.
    const urls = body
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => /^https?:\/\//i.test(l));
    if (urls.length === 0) throw new SitemapError("is neither XML nor a list of URLs");
    return { kind: "urlset", urls };
  }
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(body) as Record<string, unknown>;
  } catch (e) {
    throw new SitemapError(`is not readable XML (${e instanceof Error ? e.message.split("\n")[0] : "parse error"})`);
  }
  const urlset = doc.urlset as { url?: unknown } | string | undefined;
  if (urlset !== undefined) return { kind: "urlset", urls: locs(typeof urlset === "object" ? urlset.url : undefined) };
  const index = doc.sitemapindex as { sitemap?: unknown } | string | undefined;
  if (index !== undefined) return { kind: "index", sitemaps: locs(typeof index === "object" ? index.sitemap : undefined) };
  throw new SitemapError("has neither <urlset> nor <sitemapindex>");
}
