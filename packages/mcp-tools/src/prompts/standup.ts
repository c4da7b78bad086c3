import { z } from "zod";
import { issueLines, shortTime, toIssueRow } from "../format.js";
import { eventSummary } from "../tools/get-digest.js";
import { definePrompt } from "./prompt.js";

function yesterday(): string {
  return new Date(Date.now() - 24 * 3600 * 1000).toISOString().slice(0, 10);
}

export const standupPrompt = definePrompt({
  name: "standup",
  title: "My standup",
  description:
    "Write my standup: what I moved since yesterday (or `since`), what I am on, what blocks me, and what others did on my issues.",
  args: () => ({
    since: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional()
      .describe("YYYY-MM-DD; default yesterday."),
  }),
  async text(deps, { since = yesterday() }, read) {
    const { tracker } = deps;
    const from = `${since}T00:00:00Z`;
    const [recent, doing, blocked, digest] = await Promise.all([
      tracker.issues.list({ assignee: "me", sort: "-updated", limit: 50 }, read),
      tracker.issues.list({ assignee: "me", stateType: ["started"], sort: "priority", limit: 50 }, read),
      tracker.issues.list({ special: ["mine", "blocked"], limit: 50 }, read),
      tracker.digest({ since: from, limit: 50 }, read),
    ]);
    // The list is newest first, so the issues touched since `since` are its head.
    const touched = recent.items.filter((i) => i.updatedAt >= from);
    const list = (items: typeof recent.items) =>
      items.length ? issueLines(items.map(toIssueRow)) : ["none"];
    return [
      `Write my standup for today from the data below: three short parts, "Done" (finished or moved since ${since}),`,
      `"Doing" (in progress) and "Blocked" (with what blocks it). Name issues by identifier. Keep it under 120 words.`,
      "",
      `My issues updated since ${since}:`,
      ...list(touched),
      "",
      "In progress:",
      ...list(doing.items),
      "",
      "Blocked (an open issue blocks them):",
      ...list(blocked.items),
      "",
      "What others did on my issues:",
      ...(digest.length
        ? digest.map(
            (e) =>
              `${shortTime(e.createdAt)} ${e.issue.identifier} ${e.actor?.name ?? "automation"} ${eventSummary(e)}`,
          )
        : ["nothing"]),
    ].join("\n");
  },
});
