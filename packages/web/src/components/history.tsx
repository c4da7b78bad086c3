import type { Schemas } from "@tracker/sdk";
import { useState } from "react";
import { useApp } from "../app-context.js";
import { describeError } from "../session.js";
import { useData } from "../store.js";
import { priorityLabel } from "./widgets.js";

type Event = Schemas["ActivityEvent"];
type Page = { events: Event[]; nextCursor: string | null };
type Payload = Record<string, unknown>;

const nameOf = (v: unknown): string =>
  v && typeof v === "object" && "name" in v ? String((v as { name: unknown }).name) : "none";
const identifierOf = (v: unknown): string =>
  v && typeof v === "object" && "identifier" in v ? String((v as { identifier: unknown }).identifier) : "?";

/** How one changed field of an `issue_updated` event reads (payloads: the contract's getDigest). */
function fieldChange(field: string, change: { from: unknown; to: unknown }): string {
  const show = (v: unknown): string => {
    if (v === null || v === undefined || v === "") return "none";
    if (field === "priority") return priorityLabel(Number(v));
    if (field === "cycle" && typeof v === "object")
      return `cycle ${String((v as { number?: unknown }).number)}`;
    if (typeof v === "object") return nameOf(v);
    return String(v);
  };
  if (field === "description") return change.to ? "edited the description" : "removed the description";
  const label = field === "dueDate" ? "due date" : field;
  return `changed ${label} from ${show(change.from)} to ${show(change.to)}`;
}

/** One line saying what an event did to the issue, from its payload (types the page does not know say their name). */
export function describeEvent(e: Event): string {
  const p = e.payload as Payload;
  switch (e.type) {
    case "issue_created":
      return "created the issue";
    case "issue_updated":
      return Object.entries((p.changes ?? {}) as Record<string, { from: unknown; to: unknown }>)
        .map(([field, change]) => fieldChange(field, change))
        .join("; ");
    case "state_changed":
      return `moved from ${nameOf(p.from)} to ${nameOf(p.to)}`;
    case "assignee_changed":
      return p.to ? `assigned to ${nameOf(p.to)}` : `unassigned ${nameOf(p.from)}`;
    case "labels_changed": {
      const added = ((p.added as string[]) ?? []).map((l) => `added label ${l}`);
      const removed = ((p.removed as string[]) ?? []).map((l) => `removed label ${l}`);
      return [...added, ...removed].join("; ");
    }
    case "comment_added":
      return "commented";
    case "issue_moved":
      return `moved from ${identifierOf(p.from)} to ${identifierOf(p.to)}`;
    case "relation_added":
      return `marked as ${String(p.type).replace("_", " ")} ${identifierOf(p.issue)}`;
    case "relation_removed":
      return `removed ${String(p.type).replace("_", " ")} ${identifierOf(p.issue)}`;
    case "issue_archived":
      return "archived the issue";
    case "issue_unarchived":
      return "restored the issue from the archive";
    case "agent_session_created":
      return `${p.trigger === "mentioned" ? "mentioned" : "delegated the issue to"} ${nameOf(p.agent)}`;
    case "agent_activity": {
      const a = (p.activity ?? {}) as { kind?: string; body?: string };
      return a.kind === "stop" ? "stopped the agent" : `${a.kind}: ${a.body ?? ""}`;
    }
    default:
      return String(e.type).replace(/_/g, " ");
  }
}

/**
 * The issue page's timeline: every change (`GET /issues/{identifier}/history`), oldest first, 50 at a
 * time. Folded until opened, so the page and its saves cost no read for it until someone looks; once
 * open, `version` changes whenever the page's data does, so an edit made here shows in the timeline, and
 * the live stream marks `history:` keys stale for edits made elsewhere (live.ts).
 */
export function History({ identifier, version }: { identifier: string; version: string }) {
  const { tracker } = useApp();
  const [open, setOpen] = useState(false);
  const first = useData<Page>(open ? `history:${identifier}:${version}` : null, () =>
    tracker.issues.history(identifier, { limit: 50 }),
  );
  const [more, setMore] = useState<{ key: string; pages: Page[] }>({ key: "", pages: [] });
  const [error, setError] = useState<string | null>(null);
  const key = `${identifier}:${version}`;
  const extra = more.key === key ? more.pages : [];
  const events = [...(first.data?.events ?? []), ...extra.flatMap((p) => p.events)];
  const next = extra.length ? extra.at(-1)!.nextCursor : (first.data?.nextCursor ?? null);

  const loadMore = async () => {
    if (!next) return;
    try {
      const page = await tracker.issues.history(identifier, { limit: 50, cursor: next });
      setMore({ key, pages: [...extra, page] });
    } catch (err) {
      setError(describeError(err));
    }
  };

  return (
    <details className="history-section" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <h2 id="history" className="history-title">
          History
        </h2>
      </summary>
      {open && first.loading && !first.data ? <p className="muted">Loading…</p> : null}
      {first.error ? (
        <p className="muted">History could not be loaded: {describeError(first.error)}</p>
      ) : null}
      <ol className="history" aria-label="History">
        {events.map((e) => (
          <li key={e.id} className="history-event">
            <span className="history-actor">{e.actor?.name ?? "Automation"}</span>{" "}
            <span className="history-what">{describeEvent(e)}</span>{" "}
            <time dateTime={e.createdAt} className="muted">
              {new Date(e.createdAt).toLocaleString()}
            </time>
          </li>
        ))}
      </ol>
      {next && (
        <button type="button" onClick={loadMore}>
          Show more changes
        </button>
      )}
      {error && <p className="muted">{error}</p>}
    </details>
  );
}
