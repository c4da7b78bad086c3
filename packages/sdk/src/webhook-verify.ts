import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { components } from "./generated/schema.js";

/** The body of every outbound webhook delivery (the contract's `WebhookEvent`). */
export type WebhookEvent = components["schemas"]["WebhookEvent"];
/** Its `data`: the event stream's `ChangeEvent`, with `eventId` and the workspace. */
export type WebhookEventData = components["schemas"]["WebhookEventData"];

/** Headers as Node, fetch or a framework give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** Thrown by {@link verifyWebhook} when a delivery's signature or timestamp does not hold. */
export class WebhookSignatureError extends Error {
  override name = "WebhookSignatureError";
}

function header(headers: WebhookHeaders, name: string): string {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? "";
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

/**
 * Checks a webhook delivery from a Tracker server and returns its typed body: the `webhook-signature`
 * must be the HMAC of `webhook-id`, `webhook-timestamp` and the raw body under the endpoint's secret (the
 * `whsec_…` shown when it was registered), and the timestamp within five minutes of now, as the Standard
 * Webhooks specification says. Pass the body exactly as received (text or bytes), not re-serialised JSON.
 * Deliveries come at least once: deduplicate by `webhook-id`.
 *
 * @example
 * const event = verifyWebhook(await request.text(), request.headers, process.env.TRACKER_WEBHOOK_SECRET!);
 * if (event.type === "issue.created") console.log(event.data.identifier);
 */
export function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
): WebhookEvent {
  const body = typeof payload === "string" ? payload : new TextDecoder().decode(payload);
  try {
    return new Webhook(secret).verify(body, {
      "webhook-id": header(headers, "webhook-id"),
      "webhook-timestamp": header(headers, "webhook-timestamp"),
      "webhook-signature": header(headers, "webhook-signature"),
    }) as WebhookEvent;
  } catch (err) {
    if (err instanceof WebhookVerificationError) throw new WebhookSignatureError(err.message);
    throw err;
  }
}
