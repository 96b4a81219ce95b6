import { describe, expect, test } from "bun:test";
import { isGzip, parseSitemap, SitemapError, sitemapText } from "#server/modules/discovery/sitemap";

const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs
    .map((l) => `<url><loc>${l}</loc><lastmod>2024-01-01</lastmod><priority>0.8</priority></url>`)
    .join("")}</urlset>`;

describe("sitemap parsing", () => {
  test("a urlset gives its locations, entities decoded, whitespace trimmed", () => {
    const xml = urlset(["https://a.example/", "https://a.example/pricing?x=1&amp;y=2", "\n  https://a.example/blog  \n"]);
    expect(parseSitemap(xml)).toEqual({
      kind: "urlset",
      urls: ["https://a.example/", "https://a.example/pricing?x=1&y=2", "https://a.example/blog"],
    });
  });

  test("one entry is still a list; an empty urlset is empty", () => {
    expect(parseSitemap(urlset(["https://a.example/only"]))).toEqual({ kind: "urlset", urls: ["https://a.example/only"] });
    expect(parseSitemap('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>')).toEqual({ kind: "urlset", urls: [] });
  });

  test("a sitemap index gives its sitemaps", () => {
    const xml = `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>https://a.example/s1.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>
      <sitemap><loc>https://a.example/s2.xml</loc></sitemap></sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({ kind: "index", sitemaps: ["https://a.example/s1.xml.gz", "https://a.example/s2.xml"] });
  });

  test("namespace prefixes, a BOM, CDATA and extension elements (images, alternates) are read as the protocol means", () => {
    const xml = `\uFEFF<?xml version="1.0"?><sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">
      <sm:url><sm:loc><![CDATA[https://a.example/features]]></sm:loc><image:image><image:loc>https://a.example/i.png</image:loc></image:image>
      <xhtml:link rel="alternate" hreflang="de" href="https://a.example/de/features"/></sm:url></sm:urlset>`;
    expect(parseSitemap(xml)).toEqual({ kind: "urlset", urls: ["https://a.example/features"] });
  });

  test("the text format: one URL a line", () => {
    expect(parseSitemap("https://a.example/\r\nhttps://a.example/docs\n\nnot a url\n")).toEqual({
      kind: "urlset",
      urls: ["https://a.example/", "https://a.example/docs"],
    });
  });

  test("an HTML page, broken XML or an unknown root is not a sitemap", () => {
    expect(() => parseSitemap("<!doctype html><html><body>Not found</body></html>")).toThrow(SitemapError);
    expect(() => parseSitemap("<rss><channel></channel></rss>")).toThrow("has neither <urlset> nor <sitemapindex>");
    expect(() => parseSitemap("hello")).toThrow(SitemapError);
  });

  test("DOCTYPE entity expansion is bounded (a billion laughs does not blow up)", () => {
    const lol = `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY a "aaaaaaaaaa">${Array.from(
      { length: 30 },
      (_, i) => `<!ENTITY e${i} "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">`,
    ).join("")}]><urlset><url><loc>&e1;</loc></url></urlset>`;
    const started = performance.now();
    let result: unknown;
    try {
      result = parseSitemap(lol);
    } catch (e) {
      result = e;
    }
    expect(performance.now() - started).toBeLessThan(1000);
    if (!(result instanceof SitemapError)) expect(JSON.stringify(result).length).toBeLessThan(20_000);
  });
});

describe("sitemap gzip", () => {
  const xml = urlset(["https://a.example/pricing"]);

  test("gzipped bytes are unpacked by their magic number, plain bytes are read as they are", () => {
    const packed = Bun.gzipSync(new TextEncoder().encode(xml));
    expect(isGzip(packed)).toBe(true);
    expect(sitemapText(packed, 1024 * 1024)).toBe(xml);
    expect(sitemapText(new TextEncoder().encode(xml), 1024 * 1024)).toBe(xml);
  });

  test("a gzip bomb stops at the cap on the unpacked size", () => {
    const bomb = Bun.gzipSync(new Uint8Array(50 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(() => sitemapText(bomb, 1024 * 1024)).toThrow("unpacks to more than 1024 KiB");
  });

  test("broken gzip is said to be", () => {
    const packed = Bun.gzipSync(new TextEncoder().encode(xml));
    expect(() => sitemapText(packed.subarray(0, 20), 1024 * 1024)).toThrow("is not valid gzip");
  });
});
