// A page's path as the user types it: "/pricing", "pricing" or a full URL on the site's origin.

/** The path (with its query) a typed address stands for on the site. */
export function toPath(raw: string, origin: string): string {
  const text = raw.trim();
  const url = URL.canParse(text) ? new URL(text) : new URL(text.startsWith("/") ? text : `/${text}`, origin);
  return url.pathname + url.search;
}

/** Why a typed address cannot be a page of the site, or null. */
export function pathProblem(raw: string, origin: string): string | null {
  const text = raw.trim();
  if (!text) return "Enter the page's path, for example /pricing";
  if (/\s/.test(text)) return "A path has no spaces";
  if (URL.canParse(text)) {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") {
      return url.origin === origin ? null : `A page is on the site's own origin (${origin})`;
    }
  }
  return URL.canParse(text.startsWith("/") ? text : `/${text}`, origin) ? null : "Enter the page's path, for example /pricing";
}
