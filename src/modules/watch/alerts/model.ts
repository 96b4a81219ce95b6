import { z } from "zod";
import { changeKind, severity, targetChanges } from "#server/modules/changes/model";

const common = {
  minSeverity: severity.default("low"),
  kinds: z.array(changeKind).max(8).default([]),
};

/**
 * `webhook` posts to a URL, `email` mails one address, `members` mails the workspace's members who
 * receive alerts (each member opts in or out for themselves: PATCH /api/workspaces/:id/members/:userId { alerts }), read at
 * each delivery, so whoever joins or opts out later is counted then.
 */
export const ALERT_CHANNELS = ["webhook", "email", "members"] as const;
const CHANNEL_ERROR = 'channel must be "webhook", "email" or "members"';

export const alertBody = z.discriminatedUnion(
  "channel",
  [
    z.object({
      channel: z.literal("webhook"),
      url: z.string({ error: "url must be a string" }).max(2048, "The webhook URL is too long"),
      ...common,
    }),
    z.object({ channel: z.literal("email"), email: z.email({ error: "Enter a valid e-mail address" }).max(254), ...common }),
    z.object({ channel: z.literal("members"), ...common }),
  ],
  { error: CHANNEL_ERROR },
);
export type AlertBody = z.infer<typeof alertBody>;

/**
 * The same body as one object (what the route declares: OpenAPI bodies are objects with
 * properties); the channel decides which address is required, and `toAlertBody` narrows it.
 */
export const alertRequest = z
  .object({
    channel: z.enum(ALERT_CHANNELS, { error: CHANNEL_ERROR }),
    url: z.string({ error: "url must be a string" }).max(2048, "The webhook URL is too long").optional(),
    email: z.email({ error: "Enter a valid e-mail address" }).max(254).optional(),
    ...common,
  })
  .superRefine((b, ctx) => {
    if (b.channel === "webhook" && b.url === undefined)
      ctx.addIssue({ code: "custom", path: ["url"], message: "url is required for a webhook alert" });
    if (b.channel === "email" && b.email === undefined)
      ctx.addIssue({ code: "custom", path: ["email"], message: "email is required for an e-mail alert" });
  });
export type AlertRequest = z.infer<typeof alertRequest>;

export const toAlertBody = (b: AlertRequest): AlertBody =>
  b.channel === "webhook"
    ? { channel: "webhook", url: b.url!, minSeverity: b.minSeverity, kinds: b.kinds }
    : b.channel === "email"
      ? { channel: "email", email: b.email!, minSeverity: b.minSeverity, kinds: b.kinds }
      : { channel: "members", minSeverity: b.minSeverity, kinds: b.kinds };

export const alertView = z.object({
  id: z.string(),
  comparisonId: z.string(),
  channel: z.enum(ALERT_CHANNELS),
  url: z.string().nullable(),
  email: z.string().nullable(),
  minSeverity: severity,
  kinds: z.array(changeKind),
  createdAt: z.string(),
});
export type AlertView = z.infer<typeof alertView>;

export const deliveryView = z.object({
  alertId: z.string(),
  runId: z.string(),
  status: z.enum(["sent", "failed"]),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type DeliveryView = z.infer<typeof deliveryView>;

/** The webhook's JSON body: Slack reads `text`; scripts read the rest. */
export const webhookPayload = z.object({
  text: z.string(),
  comparison: z.object({ id: z.string(), name: z.string() }),
  run: z.object({ id: z.string(), number: z.number().int().nullable() }),
  link: z.string(),
  targets: z.array(targetChanges),
});
export type WebhookPayload = z.infer<typeof webhookPayload>;
