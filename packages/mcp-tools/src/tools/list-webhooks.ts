import { z } from "zod";
import { defineTool } from "../tool.js";
import { findWebhook } from "./webhook-ref.js";

const delivery = z.object({
  id: z.string(),
  eventType: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.number(),
  responseStatus: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
});

export const listWebhooksTool = defineTool({
  name: "list_webhooks",
  title: "List webhooks",
  description:
    "Webhook endpoints (admins): URL, events, team, enabled or why not. With `webhook`: its " +
    "latest deliveries, their status, attempts, answer or error.",
  input: {
    webhook: z.string().min(1).optional().describe("Its id or URL: its deliveries."),
    status: z.enum(["pending", "succeeded", "failed"]).optional().describe("Only these deliveries."),
  },
  output: {
    webhooks: z.array(
      z.object({
        id: z.string(),
        url: z.string(),
        events: z.array(z.string()),
        team: z.string().nullable(),
        enabled: z.boolean(),
        disabledReason: z.string().nullable(),
      }),
    ),
    deliveries: z.array(delivery).optional(),
  },
  role: "admin",
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const hooks = await tracker.webhooks.list(read);
    const webhooks = hooks.map((h) => ({
      id: h.id,
      url: h.url,
      events: h.events,
      team: h.team?.key ?? null,
      enabled: h.enabled,
      disabledReason: h.disabledReason,
    }));
    const lines = webhooks.map(
      (h) =>
        `${h.url} [${h.enabled ? "enabled" : `disabled${h.disabledReason ? `: ${h.disabledReason}` : ""}`}] ${h.events.join(",")}${h.team ? ` team ${h.team}` : ""} id ${h.id}`,
    );
    if (!input.webhook) return { text: lines.join("\n") || "No webhooks.", data: { webhooks } };
    const hook = await findWebhook(tracker, input.webhook, read);
    const log = await tracker.webhooks.deliveries(
      hook.id,
      { limit: 20, ...(input.status ? { status: input.status } : {}) },
      read,
    );
    const deliveries = log.map((d) => ({
      id: d.id,
      eventType: d.eventType,
      status: d.status,
      attempts: d.attempts,
      responseStatus: d.responseStatus,
      error: d.error,
      createdAt: d.createdAt,
    }));
    const text = [
      `Deliveries to ${hook.url}, newest first:`,
      ...deliveries.map((d) =>
        `${d.createdAt} ${d.eventType} ${d.status} ×${d.attempts} ${d.responseStatus ?? d.error ?? ""} id ${d.id}`.trimEnd(),
      ),
    ];
    if (!deliveries.length) text.push("None yet.");
    return { text: text.join("\n"), data: { webhooks, deliveries } };
  },
});
