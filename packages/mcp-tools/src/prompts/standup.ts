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
  async text(deps, { since = yesterday() }, { read }) {
    const { tracker } = deps;
    const [done, moved, doing, blocked, digest] = await Promise.all([
      tracker.issues.list({ assignee: "me", completedAfter: since, sort: "-updated", limit: 50 }, read),
      tracker.issues.list(
        {
          assignee: "me",
          updatedAfter: since,
          stateType: ["backlog", "unstarted", "started"],
          sort: "-updated",
          limit: 50,
        },
        read,
      ),
      tracker.issues.list({ assignee: "me", stateType: ["started"], sort: "priority", limit: 50 }, read),
      tracker.issues.list({ special: ["mine", "blocked"], limit: 50 }, read),
      tracker.digest({ since: `${since}T00:00:00Z`, limit: 50 }, read),
    ]);
    const list = (page: typeof done) =>
      page.items.length ? issueLines(page.items.map(toIssueRow)) : ["none"];
    return [
      `Write my standup for today from the data below: three short parts, "Done" (finished or moved since ${since}),`,
      `"Doing" (in progress) and "Blocked" (with what blocks it). Name issues by identifier. Keep it under 120 words.`,
      "",
      `My issues completed or canceled since ${since}:`,
      ...list(done),
      "",
      `My open issues updated since ${since}:`,
      ...list(moved),
      "",
      "In progress:",
      ...list(doing),
      "",
      "Blocked (an open issue blocks them):",
      ...list(blocked),
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
