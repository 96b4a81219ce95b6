// What the tests' and benches' static servers share: the content type of a served file, and where
// the shared corpus of real templates is (read in place, never copied into the repository).
import { existsSync } from "node:fs";
import { extname, resolve } from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".ttf": "font/ttf",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
};

export const contentType = (path: string) => CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
export const HTML_TYPE = CONTENT_TYPES[".html"]!;

// CORPUS_DIR, else beside the checkout (../shared/corpus, as CI lays it out), else beside the folder of worktrees.
const CORPUS_CANDIDATES = [resolve(import.meta.dir, "../../../shared/corpus"), resolve(import.meta.dir, "../../../../shared/corpus")];
export const CORPUS_DIR = resolve(process.env.CORPUS_DIR || (CORPUS_CANDIDATES.find((d) => existsSync(d)) ?? CORPUS_CANDIDATES[0]!));
