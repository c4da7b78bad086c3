import type { components } from "@tracker/sdk/schema";
import { sql } from "../../db/sql.js";
import { EMPTY, q, raw } from "../../db/sql-fragment.js";
import { iso } from "../../db/sql-time.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Invalid } from "../../http/problem.js";
import { ACTIVITY_JSON } from "../agents/agent.query.js";
import { resolveIssue } from "../shared/resolve.query.js";
import type { ActivityEventOut } from "./activity.query.js";

type HistoryPage = components["schemas"]["ActivityEvent"][];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The position after one event: its time as PostgreSQL wrote it (microseconds kept) and its id. */
interface Position {
  at: string;
  id: string;
}

const encodeCursor = (p: Position) => Buffer.from(JSON.stringify([p.at, p.id])).toString("base64url");

/** A cursor this server made, or 400 `invalid_request` (the contract's getIssueHistory). */
function decodeCursor(cursor: string): Position {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof at === "string" && typeof id === "string" && UUID.test(id) && !Number.isNaN(Date.parse(at)))
      return { at, id };
  } catch {}
  throw new Invalid("The cursor is not one this server gave out.", [
    { path: "/query/cursor", message: "must be a nextCursor of a previous page" },
  ]);
}

/**
 * `GET /issues/{identifier}/history`: the issue's activity events (recorded by each write in its own
 * transaction, `activity.query.ts`) and its agents' session activities (modules/agents, as type
 * `agent_activity` with the session's id and the activity as the contract's `AgentActivity`), oldest first, paged by (created_at, id) so that events recorded
 * later never shift a page already read. One more row than the page tells whether another follows.
 */
export async function getIssueHistory(
  scope: WorkspaceScope,
  ref: string,
  opts: { limit?: number; cursor?: string },
): Promise<{ events: HistoryPage; nextCursor: string | null }> {
  const after = opts.cursor === undefined ? null : decodeCursor(opts.cursor);
  const issue = await resolveIssue(scope, ref);
  const limit = opts.limit ?? 50;
  const after_ = (t: string) =>
    after
      ? q`and (${raw(t)}.created_at, ${raw(t)}.id) > (${after.at}::timestamptz, ${after.id}::uuid)`
      : EMPTY;
  const rows = await sql<{
    id: string;
    type: ActivityEventOut["type"];
    payload: Record<string, unknown>;
    created_at: Date;
    at_text: string;
    actor_id: string | null;
    actor_name: string | null;
    title: string;
  }>(
    scope.em,
    q`select h.*, i.title from (
        (select e.id, e.type, e.payload, e.created_at, e.created_at::text as at_text,
                a.id as actor_id, a.name as actor_name
           from activity_events e
           left join users a on a.id = e.actor_id
          where e.issue_id = ${issue.id} and e.workspace_id = ${scope.workspace.id} ${after_("e")}
          order by e.created_at, e.id
          limit ${limit + 1})
        union all
        (select x.id, 'agent_activity', json_build_object('session', json_build_object('id', x.session_id),
                                                          'activity', ${raw(ACTIVITY_JSON)})::jsonb,
                x.created_at, x.created_at::text, a.id, a.name
           from agent_activities x
           left join users a on a.id = x.author_id
          where x.issue_id = ${issue.id} and x.workspace_id = ${scope.workspace.id} ${after_("x")}
          order by x.created_at, x.id
          limit ${limit + 1})) h
       join issues i on i.id = ${issue.id}
      order by h.created_at, h.id
      limit ${limit + 1}`,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    events: page.map((r) => ({
      id: r.id,
      type: r.type,
      payload: r.payload,
      createdAt: iso(r.created_at)!,
      actor: r.actor_id ? { id: r.actor_id, name: r.actor_name! } : null,
      issue: { id: issue.id, identifier: issue.identifier, title: r.title },
    })),
    nextCursor: rows.length > limit && last ? encodeCursor({ at: last.at_text, id: last.id }) : null,
  };
}
