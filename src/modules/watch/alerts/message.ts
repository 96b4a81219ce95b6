// What an alert says: the comparison, the run, each change with its before and after values, and
// a link to the change view. One text serves Slack (`text`), chat tools and the e-mail body.

import type { Change, TargetChanges } from "#server/modules/changes/model";
import type { WebhookPayload } from "./model";

export interface AlertContext {
  comparison: { id: string; name: string };
  run: { id: string; number: number | null };
  /** Absolute URL of the change view. */
  link: string;
  targets: TargetChanges[];
}

/** Slack treats <, > and & as markup (<!channel> pings everyone): page text must not be able to. */
export function slackEscape(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, " ").trim();
const count = (n: number) => `${n} change${n === 1 ? "" : "s"}`;

function total(ctx: AlertContext): number {
  return ctx.targets.reduce((n, t) => n + t.changes.length, 0);
}

function headline(ctx: AlertContext): string {
  const run = ctx.run.number === null ? "" : ` (run #${ctx.run.number})`;
  return `Design Intel: ${count(total(ctx))} in “${oneLine(ctx.comparison.name)}”${run}`;
}

/**
 * Which page of the site, when it is not the home page in light: its path and role, and the dark
 * scheme (`/pricing (pricing, dark)`). A `pages` change names its path in its summary.
 */
function pageOf(c: Change): string | null {
  if (c.kind === "pages") return null;
  const role = c.role ?? "home";
  const dark = c.colorScheme === "dark";
  if (role === "home" && !dark) return null;
  const what = [role === "home" ? null : role, dark ? "dark" : null].filter(Boolean).join(", ");
  return c.path ? `${oneLine(c.path)} (${what})` : what;
}

const line = (c: Change) => {
  const page = pageOf(c);
  const where = c.kind === "pages" ? "" : ` · ${c.viewport}`;
  return `[${c.severity}] ${c.kind}${where}${page ? ` · ${page}` : ""}: ${oneLine(c.summary)}`;
};

export function webhookBody(ctx: AlertContext): WebhookPayload {
  const parts = [slackEscape(headline(ctx))];
  for (const t of ctx.targets) {
    parts.push(`*${slackEscape(oneLine(t.label))}* ${slackEscape(t.url)}`);
    for (const c of t.changes) parts.push(`• ${slackEscape(line(c))}`);
  }
  parts.push(`View the changes: ${ctx.link}`);
  return { text: parts.join("\n"), comparison: ctx.comparison, run: ctx.run, link: ctx.link, targets: ctx.targets };
}

export function emailMessage(ctx: AlertContext): { subject: string; text: string } {
  const lines = [headline(ctx), ""];
  for (const t of ctx.targets) {
    lines.push(`${oneLine(t.label)} — ${t.url}`);
    for (const c of t.changes) {
      lines.push(`  • ${line(c)}`);
      if (c.before !== null || c.after !== null)
        lines.push(
          `    before: ${c.before === null ? "—" : oneLine(c.before)}`,
          `    after:  ${c.after === null ? "—" : oneLine(c.after)}`,
        );
    }
    lines.push("");
  }
  lines.push(`View the changes: ${ctx.link}`);
  return { subject: headline(ctx).slice(0, 200), text: lines.join("\n") };
}
