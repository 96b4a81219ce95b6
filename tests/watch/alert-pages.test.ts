// An alert names the page of a change when it is not the site's home page in light.
import { expect, test } from "bun:test";
import type { Change } from "#server/modules/changes/model";
import { emailMessage, webhookBody } from "#server/modules/watch/alerts/message";

const base = { severity: "high", viewport: "desktop", before: "a", after: "b", evidence: {} } as const;
const changes: Change[] = [
  { ...base, kind: "cta", summary: "CTA “Start” → “Buy”", pageId: "h", role: "home", path: "/", colorScheme: "light" },
  { ...base, kind: "copy", summary: "Headline changed", pageId: "p", role: "pricing", path: "/pricing", colorScheme: "light" },
  { ...base, kind: "palette", summary: "Background changed", pageId: "h", role: "home", path: "/", colorScheme: "dark" },
  {
    ...base,
    kind: "pages",
    severity: "low",
    summary: "Page removed from sitemap: /old-offer",
    before: "/old-offer",
    after: null,
    evidence: { source: "sitemap" },
    pageId: null,
    role: "other",
    path: "/old-offer",
    colorScheme: "light",
  },
];
const ctx = {
  comparison: { id: "c1", name: "Rivals" },
  run: { id: "r2", number: 2 },
  link: "https://di.example/comparisons/c1/changes",
  targets: [{ targetId: "t1", label: "Acme", url: "https://acme.example/", changes }],
};

test("each line names the site's page (path, role, dark) unless it is the home page in light", () => {
  const { text } = emailMessage(ctx);
  expect(text).toContain("Acme — https://acme.example/");
  expect(text).toContain("  • [high] cta · desktop: CTA “Start” → “Buy”");
  expect(text).toContain("  • [high] copy · desktop · /pricing (pricing): Headline changed");
  expect(text).toContain("  • [high] palette · desktop · / (dark): Background changed");
  expect(text).toContain("  • [low] pages: Page removed from sitemap: /old-offer");
  expect(webhookBody(ctx).text).toContain("• [high] copy · desktop · /pricing (pricing): Headline changed");
});
