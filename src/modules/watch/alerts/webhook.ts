// Webhook POSTs under the same SSRF rules as captures: http(s) only, no credentials in the URL, and
// every address the name resolves to must be public — checked once and then *pinned* (the socket
// connects to the addresses that were checked, through `lookup`), so a DNS answer that changes
// between the check and the connection cannot point the request inside. Redirects are not followed.
// ALLOW_PRIVATE_TARGETS=1 lifts the address rules (tests, self-hosting on a LAN), as for captures.

import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { HttpError } from "#server/http/errors";
import { checkHost, parseTargetUrl, systemResolver, type Resolver } from "#server/modules/capture/public";

export interface WebhookOptions {
  allowPrivate: boolean;
  resolve?: Resolver;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** The receiver's answer is read only to free the socket; a few KB say all an error needs. */
const MAX_ANSWER_BYTES = 4096;

export class DeliveryError extends Error {}

/** The URL as a webhook destination, or the user-facing reason it is refused (no network). */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  try {
    return parseTargetUrl(raw, { allowPrivate });
  } catch (err) {
    throw new DeliveryError(err instanceof HttpError ? err.message : "Please enter a valid URL");
  }
}

export async function postWebhook(rawUrl: string, body: unknown, opts: WebhookOptions): Promise<void> {
  const url = parseWebhookUrl(rawUrl, opts.allowPrivate);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let lookup: LookupFunction | undefined;
  if (!opts.allowPrivate) {
    const verdict = await checkHost(host, opts.resolve ?? systemResolver);
    if (!verdict.ok) throw new DeliveryError(`Blocked: ${verdict.reason}`);
    const addresses = verdict.addresses;
    lookup = ((_hostname: string, options: { all?: boolean } | number | undefined, callback: (...args: unknown[]) => void) => {
      const cb = typeof options === "function" ? (options as (...args: unknown[]) => void) : callback;
      const all = typeof options === "object" && options?.all;
      const list = addresses.map((address) => ({ address, family: isIP(address) }));
      if (all) cb(null, list);
      else cb(null, list[0]!.address, list[0]!.family);
    }) as unknown as LookupFunction;
  }
  const payload = Buffer.from(JSON.stringify(body));
  const client = url.protocol === "https:" ? https : http;
  await new Promise<void>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "content-length": String(payload.length),
          "user-agent": "DesignIntel-Watch/1",
        },
        timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(lookup ? { lookup } : {}),
      },
      (res) => {
        let answer = "";
        res.on("data", (chunk: Buffer) => {
          if (answer.length < MAX_ANSWER_BYTES) answer += chunk.toString("utf8");
        });
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve();
          const detail = answer.replace(/\s+/g, " ").trim().slice(0, 200);
          if (status >= 300 && status < 400)
            return reject(new DeliveryError(`The webhook answered HTTP ${status} (redirects are not followed)`));
          reject(
            new DeliveryError(
              `The webhook answered HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ""}${detail ? `: ${detail}` : ""}`,
            ),
          );
        });
        res.on("error", (e) => reject(new DeliveryError(`The webhook's answer broke off: ${e.message}`)));
      },
    );
    req.on("timeout", () =>
      req.destroy(new DeliveryError(`The webhook did not answer within ${Math.round((opts.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s`)),
    );
    req.on("error", (e) => reject(e instanceof DeliveryError ? e : new DeliveryError(`Could not reach the webhook: ${e.message}`)));
    req.end(payload);
  });
}
