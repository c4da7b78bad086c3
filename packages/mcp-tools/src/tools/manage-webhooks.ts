import { z } from "zod";
import { ToolRefusal } from "../errors.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";
import { findWebhook } from "./webhook-ref.js";

/** What an endpoint receives, said back so the agent sees what it scoped: `issue.created of team ENG`. */
function scopeOf(hook: { events: string[]; team: { key: string } | null }): string {
  return `${hook.events.join(",")} of ${hook.team ? `team ${hook.team.key}` : "every team"}`;
}
const row = (hook: {
  id: string;
  url: string;
  enabled: boolean;
  events: string[];
  team: { key: string } | null;
}) => ({
  id: hook.id,
  url: hook.url,
  enabled: hook.enabled,
  events: hook.events,
  team: hook.team?.key ?? null,
});

export const manageWebhooksTool = defineTool({
  name: "manage_webhooks",
  title: "Register, change or remove webhooks",
  description:
    "Outbound webhooks (admins). `create`: POST changes to a public `url`, of `events` (`issue`, " +
    "`issue.created`, `comment`, ...; `*` by default), of one `team` or all; answers the signing secret once. " +
    "`update` (`url`, `events`, `team`, `enabled`), `delete`, or `redeliver` a `delivery`.",
  input: {
    action: z.enum(["create", "update", "delete", "redeliver"]),
    webhook: z.string().min(1).optional().describe("Its id or URL."),
    url: z.string().min(1).max(2000).optional().describe("Where to POST."),
    events: z.array(z.string().min(1)).min(1).max(50).optional(),
    team: z.string().min(1).nullable().optional().describe("A team key; null: all."),
    enabled: z.boolean().optional().describe("update: on or off."),
    delivery: z.string().min(1).optional().describe("A delivery id (list_webhooks)."),
    idempotencyKey: idempotencyKeyInput,
  },
  output: {
    webhook: z
      .object({
        id: z.string(),
        url: z.string(),
        enabled: z.boolean(),
        events: z.array(z.string()),
        team: z.string().nullable(),
      })
      .optional(),
    secret: z.string().optional(),
    /** `redeliver`: the new delivery's id. */
    delivery: z.string().optional(),
    deleted: z.boolean().optional(),
  },
  role: "admin",
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
        text: `Registered ${webhook.url} (id ${webhook.id}) for ${scopeOf(webhook)}. Signing secret (shown once): ${secret}`,
        data: { webhook: row(webhook), secret },
      };
    }
    if (!input.webhook)
      throw new ToolRefusal(`${input.action} needs \`webhook\`: its id or URL (list_webhooks).`);
    const hook = await findWebhook(tracker, input.webhook, read);
    if (input.action === "delete") {
      await tracker.webhooks.delete(hook.id, read);
      return {
        text: `Deleted the webhook to ${hook.url} (it had ${scopeOf(hook)}).`,
        data: { webhook: row(hook), deleted: true },
      };
    }
    if (input.action === "redeliver") {
      if (!input.delivery)
        throw new ToolRefusal("redeliver needs `delivery`: a delivery id (list_webhooks with `webhook`).");
      const delivery = await tracker.webhooks.redeliver(hook.id, input.delivery, write());
      return {
        text: `Queued ${delivery.eventType} to ${hook.url} again (delivery ${delivery.id}).`,
        data: { webhook: row(hook), delivery: delivery.id },
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
      text: `Webhook ${changed.url} is ${changed.enabled ? "enabled" : "disabled"}, for ${scopeOf(changed)}.`,
      data: { webhook: row(changed) },
    };
  },
  about: () => ({}),
});
