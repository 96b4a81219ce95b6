// The headline on real templates nobody here wrote (the shared corpus, served in place on
// 127.0.0.1): the line a visitor reads first in each hero, never a nav brand or a section label.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CORPUS_DIR as CORPUS, contentType } from "#tests/support/static-files";
import { gather, useHarness, type Route } from "./harness";

/** Every file of the templates, as routes of the fixture server (read in place, never copied). */
function corpusRoutes(templates: string[]): Record<string, Route> {
  const routes: Record<string, Route> = {};
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full, `${prefix}/${name}`);
      else
        routes[`${prefix}/${name}`] = {
          body: new Uint8Array(readFileSync(full)),
          type: contentType(name),
        };
    }
  };
  for (const t of templates) if (existsSync(join(CORPUS, t))) walk(join(CORPUS, t), `/${t}`);
  return routes;
}

/** The hero line of each template, as its index.html sets it. */
const EXPECTED: Record<string, string> = {
  "clean-blog": "Clean Blog",
  "clean-blog-2020": "Clean Blog",
  "stylish-portfolio": "Stylish Portfolio",
  // innerText, as rendered: the template sets its name in capitals with text-transform.
  resume: "CLARENCE TAYLOR",
  "one-page-wonder": "One Page Wonder",
};

const h = useHarness(corpusRoutes(Object.keys(EXPECTED)));

describe.skipIf(!existsSync(CORPUS))("headline on the corpus", () => {
  for (const [template, headline] of Object.entries(EXPECTED)) {
    test(`${template}: ${headline}`, async () => {
      const c = await gather(await h.open(`/${template}/index.html`), "copy");
      expect(c.headline).toBe(headline);
    });
  }
});
