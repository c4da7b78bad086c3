import type { Schemas } from "@tracker/sdk";
import { z } from "zod";
import { shortTime } from "../format.js";
import { pageLimitInput } from "../inputs.js";
import { eventSummaryUnder } from "../lockdown.js";
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A value without its ids, so what is left names things (`{"key":"ENG"}`), never a cut-off uuid. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k, v]) => k !== "id" && !(typeof v === "string" && UUID.test(v)))
        .map(([k, v]) => [k, withoutIds(v)]),
    );
  return value;
}

/** One side of a change in words: `none`, a name, a cycle's number, an identifier, else compact JSON. */
function valueWords(value: unknown): string {
  if (value === null || value === undefined || value === "") return "none";
  if (typeof value === "string") return UUID.test(value) ? "(id)" : clip(value, 60);
  if (typeof value !== "object") return String(value);
  for (const key of ["name", "identifier", "key", "title"]) {
    const named = field(value, key);
    if (typeof named === "string") return named;
  }
  const number = field(value, "number");
  if (typeof number === "number") return String(number);
  return clip(withoutIds(value), 60);
}

const PRIORITY_WORDS = ["none", "urgent", "high", "medium", "low"];

/**
 * One field of `issue_updated` (the contract's `getDigest`: title, description, priority, estimate,
 * dueDate, project `{id, name}`, cycle `{id, number}`, parent identifier) as words: `cycle 1 → cycle 2`,
 * `estimate none → 3`, `project none → Launch`; a field the contract adds later reads by its name.
 */
export function changeWords(name: string, change: { from: unknown; to: unknown }): string {
  const { from, to } = change;
  switch (name) {
    case "description":
      return "description";
    case "title":
      return `title "${valueWords(from)}" → "${valueWords(to)}"`;
    case "priority": {
      const word = (p: unknown) => (typeof p === "number" ? (PRIORITY_WORDS[p] ?? String(p)) : valueWords(p));
      return `priority ${word(from)} → ${word(to)}`;
    }
    case "dueDate":
      return `due date ${valueWords(from)} → ${valueWords(to)}`;
    case "cycle": {
      const word = (c: unknown) => (c === null || c === undefined ? "no cycle" : `cycle ${valueWords(c)}`);
      return `${word(from)} → ${word(to)}`;
    }
    default:
      return `${name} ${valueWords(from)} → ${valueWords(to)}`;
  }
}

/** What happened, in a few words, from the payload the contract documents for each event type. */
export function eventSummary(e: Event): string {
  const p = e.payload;
  switch (e.type) {
    case "issue_created":
      return `created it in ${String(field(p.team, "key") ?? "?")}`;
    case "issue_updated":
      return `changed ${Object.entries((p.changes ?? {}) as Record<string, { from: unknown; to: unknown }>)
        .map(([name, c]) => changeWords(name, c))
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
    case "pull_request": {
      const pr = p.pullRequest;
      return `pull request ${String(field(pr, "repository") ?? "?")}#${String(field(pr, "number") ?? "?")} ${String(p.action ?? "")}`.trimEnd();
    }
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
  async run(input, { tracker, read, trust }) {
    const since = input.since && input.since.length === 10 ? `${input.since}T00:00:00Z` : input.since;
    const raw = await tracker.digest({ ...(since ? { since } : {}), limit: input.limit }, read);
    let held = false;
    const events = await Promise.all(
      raw.map(async (e) => {
        const shown = trust ? await eventSummaryUnder(trust, e, eventSummary(e)) : undefined;
        held ||= shown?.held ?? false;
        return {
          at: e.createdAt,
          actor: e.actor?.name ?? null,
          type: e.type,
          issue: e.issue.identifier,
          summary: shown?.summary ?? eventSummary(e),
        };
      }),
    );
    const titles = new Map(raw.map((e) => [e.issue.identifier, e.issue.title]));
    const lines = events.map((e) => `${shortTime(e.at)} ${e.issue} ${e.actor ?? "automation"} ${e.summary}`);
    const hasMore = raw.length === input.limit;
    if (titles.size)
      lines.push(`issues: ${[...titles].map(([id, t]) => `${id} ${clip(t, 60)}`).join(" | ")}`);
    if (hasMore) lines.push(`(${events.length} shown, newest first; older ones need a higher limit)`);
    if (held) lines.unshift(trust!.legend());
    return {
      text: lines.join("\n") || "Nothing happened on your issues in that time.",
      data: { events, hasMore },
    };
  },
});
