import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, positiveInt, UsageError } from "../../command.js";
import { printList, relativeTime } from "../../output.js";

export const spec = defineCommand({
  summary: "Your inbox: changes by others to issues you created, are assigned to or follow, and mentions",
  description:
    "Newest first; unread ones are marked with a dot on a terminal. --read-all marks every one read;\n" +
    "`tracker issues subscribe|unsubscribe` follows or stops following an issue.",
  args: [],
  options: {
    unread: { type: "boolean", description: "Only unread notifications" },
    "read-all": { type: "boolean", description: "Mark every notification read, then list" },
    since: {
      type: "string",
      value: "WHEN",
      description: "Only after this: 3d, 12h, 2w or a date (default 14 days)",
    },
    limit: { type: "string", short: "L", value: "N", description: "Most events (default 50, at most 200)" },
  },
  examples: [
    "tracker inbox",
    "tracker inbox --unread",
    "tracker inbox --read-all",
    "tracker inbox --since 1d",
    "tracker inbox --json --jq '.[] | select(.type == \"comment_added\")'",
  ],
});

type Event = Schemas["ActivityEvent"];
type Notification = Schemas["Notification"];

/** `3d`, `12h`, `2w` ago, or a date or time. */
export function since(value: string, now = Date.now()): string {
  const ago = /^(\d+)([hdw])$/.exec(value);
  if (ago) {
    const hours = Number(ago[1]) * (ago[2] === "h" ? 1 : ago[2] === "d" ? 24 : 168);
    return new Date(now - hours * 3_600_000).toISOString();
  }
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed))
    throw new UsageError(`invalid value "${value}" for --since; expected 3d, 12h, 2w or a date`);
  return new Date(parsed).toISOString();
}

type Payload = Record<string, unknown>;
const nameOf = (v: unknown) =>
  v && typeof v === "object" && "name" in v ? String((v as { name: unknown }).name) : "nobody";

/** One line saying what happened, from the digest's payload (`getDigest` in the contract). */
export function describe(event: Event): string {
  const p = event.payload as Payload;
  switch (event.type) {
    case "issue_created":
      return "created it";
    case "issue_updated":
      return `changed ${Object.keys((p.changes as Payload) ?? {}).join(", ")}`;
    case "state_changed":
      return `moved it from ${nameOf(p.from)} to ${nameOf(p.to)}`;
    case "assignee_changed":
      return p.to ? `assigned it to ${nameOf(p.to)}` : "unassigned it";
    case "comment_added": {
      const body = String((p.comment as Payload | undefined)?.body ?? "").replace(/\s+/g, " ");
      return `commented: ${body}`;
    }
    case "labels_changed": {
      const added = ((p.added as string[]) ?? []).map((l) => `+${l}`);
      const removed = ((p.removed as string[]) ?? []).map((l) => `-${l}`);
      return `labels ${[...added, ...removed].join(" ")}`;
    }
    case "issue_moved":
      return `moved it to ${String((p.to as Payload | undefined)?.identifier ?? "another team")}`;
    case "relation_added":
    case "relation_removed": {
      const other = String((p.issue as Payload | undefined)?.identifier ?? "another issue");
      const type = String(p.type ?? "related").replace(/_/g, " ");
      return event.type === "relation_added" ? `marked it ${type} ${other}` : `removed ${type} ${other}`;
    }
    case "issue_archived":
      return "archived it";
    case "issue_unarchived":
      return "restored it from the archive";
    default:
      return String(event.type).replace(/_/g, " ");
  }
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const limit = opts.limit ? positiveInt("limit", opts.limit) : undefined;
  const after = opts.since ? since(opts.since) : undefined;
  if (opts["read-all"]) await deps.tracker.inbox.markRead({}, deps.call);
  const { notifications } = await deps.tracker.inbox.list(
    { ...(opts.unread ? { unread: "true" as const } : {}), ...(limit ? { limit } : {}) },
    deps.call,
  );
  const shown = after ? notifications.filter((n) => n.createdAt > after) : notifications;
  await printList<Notification>(
    deps,
    opts,
    shown,
    [
      {
        header: "WHEN",
        value: (n) => n.createdAt,
        tty: (n) => `${n.readAt ? " " : "•"} ${relativeTime(n.createdAt)}`,
        style: (_, c) => c.gray,
      },
      { header: "ISSUE", value: (n) => n.event.issue.identifier, style: (_, c) => c.cyan },
      { header: "WHO", value: (n) => n.event.actor?.name ?? "automation", max: 20 },
      { header: "WHAT", value: (n) => describe(n.event), flex: true, max: 70 },
      { header: "TITLE", value: (n) => n.event.issue.title, flex: true, max: 40 },
      { header: "WHY", value: (n) => n.reason },
      { header: "READ", value: (n) => (n.readAt ? "read" : "unread") },
    ],
    opts.unread ? "Nothing unread." : "Your inbox is empty.",
  );
}
