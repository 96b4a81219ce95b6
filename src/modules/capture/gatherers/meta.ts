// Meta gatherer: the document's title and description, and how tall the page is before any cap.

import type { Extraction } from "../model";
import { clean } from "../page/strings";

export type MetaMeasurement = Pick<Extraction, "title" | "metaDescription" | "pageHeight">;

export function gatherMeta(): MetaMeasurement {
  const meta = document.querySelector('meta[name="description" i]') ?? document.querySelector('meta[property="og:description" i]');
  return {
    title: clean(document.title, 300),
    metaDescription: clean(meta?.getAttribute("content") ?? "", 500),
    pageHeight: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
  };
}
