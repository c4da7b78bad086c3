import type { Schemas } from "@tracker/sdk";
import { z } from "zod";
import { shortTime } from "../format.js";
import { pageLimitInput } from "../inputs.js";
import { defineTool } from "../tool.js";

type Event = Schemas["ActivityEvent"];

const clip = (text: unknown, max = 80) => {
  const s = typeof text === "string" ? text : JSON.stringify(text);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

type Payload = Record<string, unknown>;
const field = (value: unknown, key: string): unknown =>
  value && typeof value === "object" ? (value as Payload)[key] : undefined;
const nameOf = (value: unknown) => {
  const name = field(value, "name");
  return typeof name === "string" ? name : value === null ? "nobody" : clip(value, 40);
};
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** What happened, in a few words, from the payload the contract documents for each event type. */
export function eventSummary(e: Event): string {
  const p = e.payload;
  switch (e.type) {
    case "issue_created":
      return `created it in ${String(field(p.team, "key") ?? "?")}`;
    case "issue_updated":
      return `changed ${Object.entries((p.changes ?? {}) as Record<string, { from: unknown; to: unknown }>)
        .map(([name, c]) =>
          name === "description" ? "description" : `${name} ${nameOf(c.from)} → ${nameOf(c.to)}`,
        )
        .join(", ")}`;
    case "state_changed":
      return `moved ${nameOf(p.from)} → ${nameOf(p.to)}`;
    case "assignee_changed":
      return p.to ? `assigned ${nameOf(p.to)}` : "unassigned it";
    case "comment_added":
      return `commented: ${clip(field(p.comment, "body") ?? "")}`;
    case "labels_changed": {
      const changes = [...strings(p.added).map((l) => `+${l}`), ...strings(p.removed).map((l) => `-${l}`)];
      return `labels ${changes.join(" ")}${p.mergedFrom ? ` (merge of ${String(p.mergedFrom)})` : ""}`;
    }
    case "issue_moved":
      return `moved ${String(field(p.from, "identifier") ?? "?")} → ${String(field(p.to, "identifier") ?? "?")}`;
    case "relation_added":
      return `related: ${String(p.type ?? "related").replace("_", " ")} ${String(field(p.issue, "identifier") ?? "?")}`;
    case "relation_removed":
      return `unrelated: ${String(p.type ?? "related").replace("_", " ")} ${String(field(p.issue, "identifier") ?? "?")}`;
    case "issue_archived":
      return "archived";
    case "issue_unarchived":
      return "restored from the archive";
    default:
      return e.type;
  }
}

export const getDigestTool = defineTool({
  name: "get_digest",
  title: "What happened on my issues",
  description:
    "What others did on issues you created, are assigned or commented on, newest first (default: the last 14 days).",
  input: {
    since: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/, "use YYYY-MM-DD or an ISO date-time")
      .optional()
      .describe("YYYY-MM-DD or ISO date-time."),
    limit: pageLimitInput(30),
  },
  output: {
    events: z.array(
      z.object({
        at: z.string(),
        actor: z.string().nullable(),
        type: z.string(),
        issue: z.string(),
        summary: z.string(),
      }),
    ),
    hasMore: z.boolean(),
  },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const since = input.since && input.since.length === 10 ? `${input.since}T00:00:00Z` : input.since;
    const raw = await tracker.digest({ ...(since ? { since } : {}), limit: input.limit }, read);
    const events = raw.map((e) => ({
      at: e.createdAt,
      actor: e.actor?.name ?? null,
      type: e.type,
      issue: e.issue.identifier,
      summary: eventSummary(e),
    }));
    const titles = new Map(raw.map((e) => [e.issue.identifier, e.issue.title]));
    const lines = events.map((e) => `${shortTime(e.at)} ${e.issue} ${e.actor ?? "automation"} ${e.summary}`);
    const hasMore = raw.length === input.limit;
    if (titles.size)
      lines.push(`issues: ${[...titles].map(([id, t]) => `${id} ${clip(t, 60)}`).join(" | ")}`);
    if (hasMore) lines.push(`(${events.length} shown, newest first; older ones need a higher limit)`);
    return {
      text: lines.join("\n") || "Nothing happened on your issues in that time.",
      data: { events, hasMore },
    };
  },
});
