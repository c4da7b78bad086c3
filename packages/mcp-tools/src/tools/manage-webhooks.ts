import { z } from "zod";
import { ToolRefusal } from "../errors.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";
import { findWebhook } from "./webhook-ref.js";

export const manageWebhooksTool = defineTool({
  name: "manage_webhooks",
  title: "Register, change, delete or redeliver webhooks",
  description:
    "Outbound webhooks (admins only). `create` an endpoint for `url` (http/https; private addresses are refused " +
    "unless the server allows them) receiving `events` (`issue`, `issue.created`, `comment`, ... or `*`, the " +
    "default), optionally only `team`'s changes: answers the signing secret, shown once. `update` one " +
    "(`url`, `events`, `team`, `enabled`); `delete` one with its log; `redeliver` one of its `delivery` ids.",
  input: {
    action: z.enum(["create", "update", "delete", "redeliver"]),
    webhook: z.string().min(1).optional().describe("update/delete/redeliver: the endpoint's id or URL."),
    url: z.string().min(1).max(2000).optional().describe("create: where to POST; update: a new URL."),
    events: z.array(z.string().min(1)).min(1).max(50).optional(),
    team: z.string().min(1).nullable().optional().describe("Only this team's changes (key); null for all."),
    enabled: z.boolean().optional().describe("update: turn the endpoint on or off."),
    delivery: z.string().min(1).optional().describe("redeliver: the delivery id (list_webhooks shows them)."),
    idempotencyKey: idempotencyKeyInput,
  },
  output: {
    webhook: z.object({ id: z.string(), url: z.string(), enabled: z.boolean() }).optional(),
    secret: z.string().optional(),
    delivery: z.object({ id: z.string(), messageId: z.string() }).optional(),
    deleted: z.boolean().optional(),
  },
  readOnly: false,
  destructive: true,
  idempotent: false,
  async run(input, { tracker, read, write }) {
    if (input.action === "create") {
      if (!input.url) throw new ToolRefusal("create needs `url`: where to POST the changes.");
      const { webhook, secret } = await tracker.webhooks.create(
        {
          url: input.url,
          ...(input.events ? { events: input.events } : {}),
          ...(input.team !== undefined ? { team: input.team } : {}),
        },
        write(),
      );
      return {
        text: `Registered ${webhook.url} (id ${webhook.id}) for ${webhook.events.join(",")}. Signing secret (shown once): ${secret}`,
        data: { webhook: { id: webhook.id, url: webhook.url, enabled: webhook.enabled }, secret },
      };
    }
    if (!input.webhook)
      throw new ToolRefusal(`${input.action} needs \`webhook\`: its id or URL (list_webhooks).`);
    const hook = await findWebhook(tracker, input.webhook, read);
    if (input.action === "delete") {
      await tracker.webhooks.delete(hook.id, read);
      return { text: `Deleted the webhook to ${hook.url}.`, data: { deleted: true } };
    }
    if (input.action === "redeliver") {
      if (!input.delivery)
        throw new ToolRefusal("redeliver needs `delivery`: a delivery id (list_webhooks with `webhook`).");
      const delivery = await tracker.webhooks.redeliver(hook.id, input.delivery, write());
      return {
        text: `Queued ${delivery.eventType} to ${hook.url} again (delivery ${delivery.id}).`,
        data: { delivery: { id: delivery.id, messageId: delivery.messageId } },
      };
    }
    const changed = await tracker.webhooks.update(
      hook.id,
      {
        ...(input.url ? { url: input.url } : {}),
        ...(input.events ? { events: input.events } : {}),
        ...(input.team !== undefined ? { team: input.team } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      },
      write(),
    );
    return {
      text: `Webhook ${changed.url} is ${changed.enabled ? "enabled" : "disabled"}, for ${changed.events.join(",")}${changed.team ? ` of ${changed.team.key}` : ""}.`,
      data: { webhook: { id: changed.id, url: changed.url, enabled: changed.enabled } },
    };
  },
  about: () => ({}),
});
