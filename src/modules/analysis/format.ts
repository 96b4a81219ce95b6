// How measured values are written in findings: short, with units, the way a designer says them.

export function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

export function bytes(value: number): string {
  if (value >= 1024 * 1024) return `${(value / (1024 * 1024)).toFixed(1)} MB`;
  if (value >= 1024) return `${Math.round(value / 1024)} KB`;
  return `${Math.round(value)} B`;
}

export function ratio(value: number): string {
  return `${(Math.floor(value * 10) / 10).toFixed(1)}:1`;
}

export function px(value: number): string {
  return `${Math.round(value)} px`;
}

/** A page's copy inside a sentence: quoted, one line, cut at a word boundary. */
export function quote(text: string, max = 60): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return `“${line}”`;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `“${(space > max / 2 ? cut.slice(0, space) : cut).trim()}…”`;
}

/** Last path segment of a resource URL, so evidence names the file rather than a 300-char URL. */
export function fileName(url: string): string {
  try {
    const u = new URL(url);
    const last = u.pathname.split("/").filter(Boolean).pop();
    return last ? decodeURIComponent(last).slice(0, 80) : u.hostname;
  } catch {
    return url.slice(0, 80);
  }
}

export function list(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
