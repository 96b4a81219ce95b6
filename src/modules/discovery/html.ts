// What discovery reads from a page's HTML, with Bun's built-in HTMLRewriter (lol-html, a streaming
// HTML parser that never runs scripts or loads anything): the title, the first headings, and the
// links inside the site's navigation (<nav>, <header>, role="navigation"). HTMLRewriter hands over
// text and attributes as written, so character references are decoded here (entities).
import { decodeHTML, decodeHTMLAttribute } from "entities";

export interface NavLink {
  /** Absolute, resolved against the page (and its <base href>); fragment removed. */
  url: URL;
  /** The link's visible text, else its aria-label or title, else an image's alt text. */
  text: string;
}

export interface PageOutline {
  title: string | null;
  /** The first h1 and h2 texts, in document order. */
  headings: string[];
  navLinks: NavLink[];
}

const NAV_SCOPES = 'nav, header, [role="navigation"]';
const MAX_HEADINGS = 4;
const MAX_NAV_LINKS = 200;
const MAX_LABEL = 120;

const squash = (s: string) => s.replace(/\s+/g, " ").trim();
/** Text as collected (character references still encoded; one may span two chunks) as a short label. */
const textLabel = (s: string) => squash(decodeHTML(s)).slice(0, MAX_LABEL);
const label = (s: string) => squash(s).slice(0, MAX_LABEL);

/** Links to these are files, not pages. */
const NOT_A_PAGE =
  /\.(pdf|zip|gz|tgz|dmg|exe|msi|pkg|apk|jpe?g|png|gif|webp|avif|svg|ico|mp4|webm|mov|mp3|wav|css|js|json|xml|txt|rss|atom)$/i;

/** An http(s) URL of a page, or null for mailto:, javascript:, files and anything unparsable. */
export function pageUrl(href: string, base: URL): URL | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (NOT_A_PAGE.test(url.pathname)) return null;
  url.hash = "";
  return url;
}

/** Reads a page's title, headings and navigation links. `pageUrl` resolves relative links. */
export function outlinePage(html: string, pageAddress: URL): PageOutline {
  let base = pageAddress;
  let title: string | null = null;
  let titleText = "";
  let inTitle = false;
  const headings: string[] = [];
  let heading: string | null = null;
  const raw: { href: string; text: string; fallback: string }[] = [];
  let current: { href: string; text: string; fallback: string } | null = null;
  // How many navigation scopes enclose the parser's position (<header><nav> is two).
  let inNav = 0;

  const rewriter = new HTMLRewriter()
    .on("base[href]", {
      element(el) {
        const href = decodeHTMLAttribute(el.getAttribute("href") ?? "");
        if (href) {
          try {
            base = new URL(href, pageAddress);
          } catch {
            /* ignored, as browsers do */
          }
        }
      },
    })
    .on("title", {
      element(el) {
        if (title !== null) return;
        inTitle = true;
        el.onEndTag(() => {
          inTitle = false;
          title = textLabel(titleText) || null;
        });
      },
      text(t) {
        if (inTitle) titleText += t.text;
      },
    })
    .on("h1, h2", {
      element(el) {
        if (headings.length >= MAX_HEADINGS) return;
        heading = "";
        el.onEndTag(() => {
          const text = textLabel(heading ?? "");
          if (text && headings.length < MAX_HEADINGS) headings.push(text);
          heading = null;
        });
      },
      text(t) {
        if (heading !== null) heading += t.text;
      },
    })
    .on(NAV_SCOPES, {
      element(el) {
        inNav++;
        el.onEndTag(() => {
          inNav--;
        });
      },
    })
    .on("a[href]", {
      element(el) {
        if (inNav === 0 || raw.length >= MAX_NAV_LINKS) return;
        const attr = (name: string) => decodeHTMLAttribute(el.getAttribute(name) ?? "");
        const link = { href: attr("href"), text: "", fallback: attr("aria-label") || attr("title") };
        current = link;
        raw.push(link);
        el.onEndTag(() => {
          current = null;
        });
      },
      text(t) {
        if (current) current.text += t.text;
      },
    })
    .on("a[href] img[alt]", {
      element(el) {
        if (current && !current.fallback) current.fallback = decodeHTMLAttribute(el.getAttribute("alt") ?? "");
      },
    });

  rewriter.transform(html);

  const navLinks: NavLink[] = [];
  for (const link of raw) {
    const url = pageUrl(link.href, base);
    if (url) navLinks.push({ url, text: textLabel(link.text) || label(link.fallback) });
  }
  return { title, headings, navLinks };
}
