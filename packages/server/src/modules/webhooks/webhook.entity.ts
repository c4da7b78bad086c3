import { defineEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { Team } from "../teams/team.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

/** An outbound webhook endpoint of a workspace (the contract's `Webhook`). */
export const WebhookEndpoint = defineEntity({
  name: "WebhookEndpoint",
  tableName: "webhook_endpoints",
  indexes: [{ properties: ["workspace", "createdAt"] }],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    url: p.text(),
    /** `*`, `<entity>` or `<entity>.<action>` (the contract's `WebhookEventFilter`). */
    events: p.array(),
    team: () => p.manyToOne(Team).nullable().deleteRule("cascade"),
    /** The Standard Webhooks secret (`whsec_...`), encrypted (`codehost/secret-box.ts`). */
    secretSealed: p.text(),
    enabled: p.boolean().default(true),
    disabledReason: p.text().nullable(),
    /** Start of the current streak of failed attempts; null after a success. */
    failingSince: p.datetime().nullable(),
    createdAt: createdTimestamp(),
  },
});

/**
 * The outbox and delivery log: one row per change and endpoint, inserted by the trigger on `change_events`
 * (`db/functions/webhook-outbox.ts`) in the change's own transaction; the dispatcher
 * (`webhook-dispatcher.ts`) claims due rows, sends them and records each attempt.
 */
export const WebhookDelivery = defineEntity({
  name: "WebhookDelivery",
  tableName: "webhook_deliveries",
  indexes: [
    { properties: ["endpoint", "createdAt"] },
    {
      name: "webhook_deliveries_due_index",
      expression: `create index "webhook_deliveries_due_index" on "webhook_deliveries" ("next_attempt_at") where "status" = 'pending'`,
    },
  ],
  properties: {
    id: uuidPrimaryKey(),
    endpoint: () => p.manyToOne(WebhookEndpoint).deleteRule("cascade"),
    /** The `webhook-id` header: `msg_<change event id>`, kept by a redelivery. */
    messageId: p.text(),
    eventType: p.text(),
    /** The `WebhookEvent` body, exactly as sent on every attempt. */
    payload: p.text(),
    status: p.enum(["pending", "succeeded", "failed"]).default("pending"),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime().nullable(),
    lastAttemptAt: p.datetime().nullable(),
    responseStatus: p.integer().nullable(),
    responseBodyPrefix: p.text().nullable(),
    durationMs: p.integer().nullable(),
    error: p.text().nullable(),
    createdAt: createdTimestamp(),
  },
});
