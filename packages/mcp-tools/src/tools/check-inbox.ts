import { z } from "zod";
import { shortTime } from "../format.js";
import { pageLimitInput } from "../inputs.js";
import { eventSummaryUnder } from "../lockdown.js";
import { defineTool } from "../tool.js";
import { eventSummary } from "./get-digest.js";

export const checkInboxTool = defineTool({
  name: "check_inbox",
  title: "My inbox",
  description:
    "Notifications: others' changes to issues you created, are assigned or follow, and @mentions; newest first. " +
    "`markRead: true` marks all read after listing.",
  input: {
    unread: z.boolean().optional().describe("Only unread ones."),
    markRead: z.boolean().optional(),
    limit: pageLimitInput(30),
  },
  output: {
    notifications: z.array(
      z.object({
        at: z.string(),
        issue: z.string(),
        actor: z.string().nullable(),
        summary: z.string(),
        reason: z.string(),
        unread: z.boolean(),
      }),
    ),
    unreadCount: z.number(),
  },
  readOnly: false,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read, write, trust }) {
    const page = await tracker.inbox.list(
      { ...(input.unread ? { unread: "true" } : {}), limit: input.limit },
      read,
    );
    let held = false;
    const notifications = await Promise.all(
      page.notifications.map(async (n) => {
        const shown = trust ? await eventSummaryUnder(trust, n.event, eventSummary(n.event)) : undefined;
        held ||= shown?.held ?? false;
        return {
          at: n.createdAt,
          issue: n.event.issue.identifier,
          actor: n.event.actor?.name ?? null,
          summary: shown?.summary ?? eventSummary(n.event),
          reason: n.reason,
          unread: n.readAt === null,
        };
      }),
    );
    const unreadCount = input.markRead ? await tracker.inbox.markRead({}, write()) : page.unreadCount;
    const lines = notifications.map(
      (n) =>
        `${n.unread ? "*" : " "} ${shortTime(n.at)} ${n.issue} ${n.actor ?? "automation"} ${n.summary} (${n.reason})`,
    );
    lines.push(`${unreadCount} unread${input.markRead ? " (all marked read)" : ""}`);
    if (held) lines.unshift(trust!.legend());
    return { text: lines.join("\n"), data: { notifications, unreadCount } };
  },
});
