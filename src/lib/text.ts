// Text keys shared by capture (what a moving part of a page can show) and change detection (copy
// compared between captures): whitespace and Unicode forms folded, case and punctuation ignored.

export function normaliseText(s: string): string {
  return s.normalize("NFKC").replace(/\s+/g, " ").trim();
}

/** Case- and punctuation-insensitive key: “Start free!” and "start free" are one phrase. */
export function textKey(s: string): string {
  return normaliseText(s)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
