import { describe, expect, test } from "bun:test";
import { outlinePage, pageUrl } from "#server/modules/discovery/html";

const PAGE = new URL("https://acme.example/en/");
const links = (html: string, at = PAGE) => outlinePage(html, at).navLinks.map((l) => [l.url.href, l.text]);

describe("navigation links", () => {
  test("links inside nav, header and role=navigation, resolved against the page; body and footer links are not navigation", () => {
    const html = `<html><head><title>Acme</title></head><body>
      <header><a href="/"><img src="/logo.svg" alt="Acme home"></a>
        <nav><a href="pricing"><span>Our</span> <b>Plans</b></a><a href="/docs/#intro">Docs</a></nav>
        <a class="btn" href="/signup">Get&nbsp;started</a></header>
      <main><a href="/in-body">Body link</a></main>
      <div role="navigation"><a href="/blog" aria-label="The blog"></a></div>
      <footer><a href="/legal">Legal</a></footer></body></html>`;
    expect(links(html)).toEqual([
      ["https://acme.example/", "Acme home"],
      ["https://acme.example/en/pricing", "Our Plans"],
      ["https://acme.example/docs/", "Docs"],
      ["https://acme.example/signup", "Get started"],
      ["https://acme.example/blog", "The blog"],
    ]);
  });

  test("an anchor inside nested scopes (<header><nav>) is one link", () => {
    expect(links(`<header><nav><a href="/a">A</a></nav></header><nav><a href="/b">B</a></nav>`)).toEqual([
      ["https://acme.example/a", "A"],
      ["https://acme.example/b", "B"],
    ]);
  });

  test("<base href> moves where relative links point; character references in hrefs are decoded", () => {
    const html = `<head><base href="https://acme.example/app/"></head><nav><a href="plans?a=1&amp;b=2">Plans</a></nav>`;
    expect(links(html)).toEqual([["https://acme.example/app/plans?a=1&b=2", "Plans"]]);
  });

  test("mailto:, javascript:, tel: and file links are dropped; another origin is kept for the caller to judge", () => {
    const html = `<nav><a href="mailto:a@b.c">Mail</a><a href="javascript:void(0)">JS</a><a href="tel:123">Call</a>
      <a href="/brochure.pdf">PDF</a><a href="https://other.example/x">Other</a><a href="http://[bad">Bad</a></nav>`;
    expect(links(html)).toEqual([["https://other.example/x", "Other"]]);
  });

  test("the number of links read is bounded", () => {
    const html = `<nav>${Array.from({ length: 500 }, (_, i) => `<a href="/p${i}">P${i}</a>`).join("")}</nav>`;
    expect(outlinePage(html, PAGE).navLinks).toHaveLength(200);
  });
});

describe("title and headings", () => {
  test("the first title, decoded and squashed; the first h1/h2 texts", () => {
    const html = `<head><title>
      Pricing &amp; plans &#8212; Acme </title></head><body><svg><title>icon</title></svg>
      <h1>Plans for <em>every</em> team</h1><h2>Compare</h2><h3>ignored</h3><h2></h2><h2>FAQ</h2><h1>Five</h1><h2>Six</h2></body>`;
    const o = outlinePage(html, PAGE);
    expect(o.title).toBe("Pricing & plans — Acme");
    expect(o.headings).toEqual(["Plans for every team", "Compare", "FAQ", "Five"]);
  });

  test("no title is null; labels are cut to a readable length", () => {
    expect(outlinePage("<h1>Hi</h1>", PAGE).title).toBeNull();
    expect(outlinePage(`<title>${"x".repeat(500)}</title>`, PAGE).title).toHaveLength(120);
  });
});

describe("pageUrl", () => {
  test("http(s) pages only, fragment removed", () => {
    expect(pageUrl("/a#b", PAGE)?.href).toBe("https://acme.example/a");
    expect(pageUrl("ftp://x/y", PAGE)).toBeNull();
    expect(pageUrl("/img/logo.PNG", PAGE)).toBeNull();
    expect(pageUrl("  /trimmed  ", PAGE)?.href).toBe("https://acme.example/trimmed");
  });
});
