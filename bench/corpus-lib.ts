// The shared real-site corpus (../shared/corpus) served on 127.0.0.1, plus variants made in a temp
// folder (never in the repository): a brand recolour, a re-worded copy, and a site carrying another
// site's words. Used by the corpus evaluation and the Lighthouse comparison.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CORPUS_DIR, contentType } from "#tests/support/static-files";

export { CORPUS_DIR };
import { converter, formatHex, parse } from "culori";

export const TEMPLATES = ["clean-blog", "clean-blog-2020", "stylish-portfolio", "resume", "one-page-wonder"] as const;

/** Serves `/<name>/...` from `roots[name]`; everything else is 404. */
export function serveFolders(roots: Record<string, string>) {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      const [, name, ...rest] = path.split("/");
      const root = name ? roots[name] : undefined;
      if (!root) return new Response("not found", { status: 404 });
      let file = resolve(root, rest.join("/") || "index.html");
      if (!file.startsWith(resolve(root))) return new Response("no", { status: 403 });
      try {
        if (statSync(file).isDirectory()) file = join(file, "index.html");
      } catch {
        return new Response("not found", { status: 404 });
      }
      return new Response(Bun.file(file), { headers: { "content-type": contentType(file) } });
    },
  });
  return { url: (name: string) => `http://127.0.0.1:${server.port}/${name}/`, stop: () => server.stop(true) };
}

const toLch = converter("lch");

/** Every chromatic colour literal in `css` turned by 180° of hue (greys, black and white untouched). */
export function rotateHues(css: string): string {
  const swap = (literal: string) => {
    const c = parse(literal);
    if (!c) return literal;
    const lch = toLch(c);
    if (!lch || (lch.c ?? 0) < 12) return literal;
    const turned = formatHex({ ...lch, h: ((lch.h ?? 0) + 180) % 360 });
    return turned ?? literal;
  };
  return (
    css
      .replace(/#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b/g, swap)
      .replace(/rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*([\d.]+)\s*)?\)/g, (m, r, g, b, alpha) => {
        const hex = swap(`rgb(${r}, ${g}, ${b})`);
        if (!hex.startsWith("#")) return m;
        return alpha === undefined ? hex : `rgba(${hexToTriple(hex)}, ${alpha})`;
      })
      // Bootstrap also keeps colours as bare "r, g, b" triples in --bs-*-rgb variables.
      .replace(/(--[\w-]+-rgb:\s*)(\d+),\s*(\d+),\s*(\d+)/g, (m, head, r, g, b) => {
        const hex = swap(`rgb(${r}, ${g}, ${b})`);
        return hex.startsWith("#") ? `${head}${hexToTriple(hex)}` : m;
      })
  );
}

const hexToTriple = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ");

function walk(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(join(dir, d.name), ext) : d.name.endsWith(ext) ? [join(dir, d.name)] : [],
  );
}

const FILLER =
  "harbour lantern meadow copper violet orchard granite saddle willow parcel thistle beacon marble cobalt ember quill " +
  "saffron juniper falcon tundra prairie basalt canyon glacier lagoon monsoon nectar pebble quarry ripple summit timber";

// Text reaches HTMLRewriter as written in the source, entities and all: "&rarr;" is not a word to replace.
const WORD_OR_ENTITY = /&#?\w+;|[\p{L}][\p{L}'’-]*/gu;

/** Rewrites every word of visible text in an HTML file, word for word, from `source` words (cycled). */
async function rewordHtml(file: string, source: string[]) {
  let i = 0;
  const next = () => source[i++ % source.length]!;
  let skip = 0;
  const rewriter = new HTMLRewriter()
    .on("script, style, noscript", {
      element(el) {
        skip++;
        el.onEndTag(() => void skip--);
      },
    })
    .on("*", {
      text(t) {
        if (skip > 0 || !t.text.trim()) return;
        t.replace(
          t.text.replace(WORD_OR_ENTITY, (w) => {
            if (w[0] === "&") return w;
            const n = next();
            return w[0] === w[0]!.toUpperCase() ? n[0]!.toUpperCase() + n.slice(1) : n;
          }),
          // Raw source in, raw source out: as plain text the entities kept above would be escaped.
          { html: true },
        );
      },
    });
  const out = await rewriter.transform(new Response(readFileSync(file, "utf8"))).text();
  writeFileSync(file, out);
}

/** The words of a page's visible text (for giving them to another site). */
export async function pageWords(file: string): Promise<string[]> {
  const words: string[] = [];
  let skip = 0;
  await new HTMLRewriter()
    .on("script, style, noscript, head", {
      element(el) {
        skip++;
        el.onEndTag(() => void skip--);
      },
    })
    .on("*", {
      text(t) {
        if (skip === 0) words.push(...(t.text.match(WORD_OR_ENTITY) ?? []).filter((w) => w[0] !== "&").map((w) => w.toLowerCase()));
      },
    })
    .transform(new Response(readFileSync(file, "utf8")))
    .text();
  return words;
}

export interface Variants {
  roots: Record<string, string>;
  cleanup(): void;
}

/**
 * Originals from the corpus, and in a temp folder for each template: `<t>~recolour` (hues of every
 * chromatic colour in its CSS and HTML turned 180°), `<t>~reword` (every visible word replaced by
 * filler), and `<a>~words-of-<b>` (a's design carrying b's words) for the given pairs.
 */
export async function makeVariants(templates: readonly string[], crossed: [string, string][]): Promise<Variants> {
  const tmp = mkdtempSync(join(tmpdir(), "corpus-variants-"));
  const roots: Record<string, string> = {};
  for (const t of templates) roots[t] = join(CORPUS_DIR, t);
  const copy = (t: string, name: string) => {
    const dir = join(tmp, name);
    cpSync(join(CORPUS_DIR, t), dir, { recursive: true });
    roots[name] = dir;
    return dir;
  };
  for (const t of templates) {
    const recoloured = copy(t, `${t}~recolour`);
    for (const f of [...walk(recoloured, ".css"), ...walk(recoloured, ".html")]) writeFileSync(f, rotateHues(readFileSync(f, "utf8")));
    const reworded = copy(t, `${t}~reword`);
    await rewordHtml(join(reworded, "index.html"), FILLER.split(" "));
  }
  for (const [a, b] of crossed) {
    const dir = copy(a, `${a}~words-of-${b}`);
    await rewordHtml(join(dir, "index.html"), await pageWords(join(CORPUS_DIR, b, "index.html")));
  }
  return { roots, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}
