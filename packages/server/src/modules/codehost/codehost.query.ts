import type { EntityManager } from "@mikro-orm/postgresql";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw, type SqlFragment } from "../../db/sql-fragment.js";
import { isoSql } from "../../db/sql-time.js";
import { isFinished, type StateType } from "../../rules/state-types.js";

/** The SQL of the code-host integration (`codehost.service.ts` says what each step is for). */

export interface ConnectionRow {
  provider: "github";
  secretSealed: string;
}

export async function connectionOf(
  em: EntityManager,
  workspaceId: string,
): Promise<ConnectionRow | undefined> {
  return sqlOne<ConnectionRow>(
    em,
    q`select provider, secret_sealed as "secretSealed" from codehost_connections where workspace_id = ${workspaceId}`,
  );
}

export async function saveConnection(em: EntityManager, workspaceId: string, sealed: string): Promise<void> {
  await sql(
    em,
    q`insert into codehost_connections (workspace_id, provider, secret_sealed, created_at)
      values (${workspaceId}, 'github', ${sealed}, now())
      on conflict (workspace_id) do update set provider = excluded.provider, secret_sealed = excluded.secret_sealed`,
  );
}

export async function deleteConnection(em: EntityManager, workspaceId: string): Promise<void> {
  await sql(em, q`delete from codehost_connections where workspace_id = ${workspaceId}`);
}

/**
 * Records a delivery as acted on; false when it already was, by its id or by its body (the caller then does
 * nothing).
 */
export async function claimDelivery(
  em: EntityManager,
  workspaceId: string,
  deliveryId: string,
  bodySha256: string,
  event: string,
): Promise<boolean> {
  const row = await sqlOne(
    em,
    q`insert into codehost_deliveries (workspace_id, delivery_id, body_sha256, event, received_at)
      values (${workspaceId}, ${deliveryId}, ${bodySha256}, ${event}, now())
      on conflict do nothing returning 1 as claimed`,
  );
  return row !== undefined;
}

/** Forgets delivery ids older than a week; GitHub's redeliveries come sooner. */
export async function pruneDeliveries(em: EntityManager): Promise<number> {
  const row = await sqlOne<{ n: number }>(
    em,
    q`with d as (delete from codehost_deliveries where received_at < now() - interval '7 days' returning 1)
      select count(*)::int as n from d`,
  );
  return row?.n ?? 0;
}

/** An issue a reference names, locked for the delivery's changes. */
export interface ReferencedIssue {
  /** The identifier as referenced (perhaps an old one). */
  ref: string;
  id: string;
  identifier: string;
  title: string;
  teamId: string;
  teamKey: string;
  projectId: string | null;
  stateId: string;
  stateName: string;
  stateType: StateType;
}

/**
 * The issues `identifiers` name in the workspace, locked (id order), each through its redirect when it
 * was moved or its team renamed: the issue holding an identifier now wins over a redirect, as in
 * `issueKeyQuery` (modules/shared/resolve.query.ts). The integration acts for the workspace, so every team
 * counts, whoever could see it.
 */
export async function lockReferencedIssues(
  em: EntityManager,
  workspaceId: string,
  identifiers: string[],
): Promise<ReferencedIssue[]> {
  if (identifiers.length === 0) return [];
  return sql<ReferencedIssue>(
    em,
    q`with wanted as (
        select w.ref, split_part(w.ref, '-', 1) as key, split_part(w.ref, '-', 2)::int as number
          from unnest(${identifiers}::text[]) as w(ref)),
      hits as (
        select distinct on (w.ref) w.ref, h.id
          from wanted w
          cross join lateral (
            select hi.id, 1 as rank from issues hi join teams ht on ht.id = hi.team_id
             where hi.workspace_id = ${workspaceId} and ht.key = w.key and hi.number = w.number
            union all
            select hr.issue_id, 2 from issue_redirects hr
             where hr.workspace_id = ${workspaceId} and hr.team_key = w.key and hr.number = w.number) h
         order by w.ref, h.rank),
      locked as (
        select i.id from issues i where i.id in (select id from hits) and i.workspace_id = ${workspaceId}
         order by i.id for update)
      select h.ref, i.id, t.key || '-' || i.number as identifier, i.title, t.id as "teamId", t.key as "teamKey",
             i.project_id as "projectId", s.id as "stateId", s.name as "stateName", s.type as "stateType"
        from hits h join locked l on l.id = h.id join issues i on i.id = h.id
        join teams t on t.id = i.team_id join workflow_states s on s.id = i.state_id
       order by i.id`,
  );
}

export interface PullRequestInput {
  repository: string;
  number: number;
  title: string;
  url: string;
  state: "open" | "draft" | "merged" | "closed";
  branch: string | null;
  closes: boolean;
}

/**
 * Links the pull request to the issue, or brings the link up to date. `created` says which; `changed`
 * whether anything the link shows differs from before. A link once closing stays closing.
 */
export async function upsertPullRequest(
  em: EntityManager,
  issueId: string,
  pr: PullRequestInput,
): Promise<{ id: string; created: boolean; changed: boolean }> {
  const row = await sqlOne<{ id: string; created: boolean; changed: boolean }>(
    em,
    q`with prior as (
        select title, url, state, branch, closes from issue_pull_requests
         where issue_id = ${issueId} and provider = 'github' and repository = ${pr.repository} and number = ${pr.number})
     insert into issue_pull_requests as l
       (id, issue_id, provider, repository, number, title, url, state, branch, closes, created_at, updated_at)
     values (gen_random_uuid(), ${issueId}, 'github', ${pr.repository}, ${pr.number}, ${pr.title}, ${pr.url},
             ${pr.state}, ${pr.branch}, ${pr.closes}, now(), now())
     on conflict (issue_id, provider, repository, number) do update
       set title = excluded.title, url = excluded.url, state = excluded.state, branch = excluded.branch,
           closes = l.closes or excluded.closes, updated_at = now()
     returning l.id, (xmax = 0) as created,
       coalesce((select (p.title, p.url, p.state, p.branch, p.closes)
                        is distinct from (l.title, l.url, l.state, l.branch, l.closes) from prior p), true) as changed`,
  );
  if (!row) throw new Error("upsert returned no row");
  return row;
}

export interface TargetState {
  id: string;
  name: string;
  type: StateType;
}

/**
 * Where a workflow rule sends the issue: of the rules of its team for the first of `triggers` that has
 * any, the one limited to its project wins over the team-wide one (the contract's `upsertWorkflow`).
 */
export async function ruleTarget(
  em: EntityManager,
  issue: { teamId: string; projectId: string | null },
  triggers: string[],
): Promise<TargetState | undefined> {
  return sqlOne<TargetState>(
    em,
    q`select s.id, s.name, s.type from workflow_rules r join workflow_states s on s.id = r.target_state_id
       where r.team_id = ${issue.teamId} and r.trigger = any(${triggers}::text[])
         and (r.project_id is null or r.project_id = ${issue.projectId}::uuid)
       order by array_position(${triggers}::text[], r.trigger::text), r.project_id nulls last
       limit 1`,
  );
}

/** The team's first `completed` state (by position): where a merged closing PR sends an issue without a rule. */
export async function firstCompletedState(
  em: EntityManager,
  teamId: string,
): Promise<TargetState | undefined> {
  return sqlOne<TargetState>(
    em,
    q`select id, name, type from workflow_states where team_id = ${teamId} and type = 'completed'
       order by position, id limit 1`,
  );
}

/**
 * Moves the issue to `state`: `completed_at` set on entering a finished type and cleared on leaving one, as
 * `PATCH /issues/{identifier}` does (issues/write/update.service.ts); the triggers on `issues` keep the rest.
 */
export async function setIssueState(
  em: EntityManager,
  issue: { id: string; stateType: StateType },
  state: TargetState,
): Promise<void> {
  const completedAt = !isFinished(state.type)
    ? "null"
    : isFinished(issue.stateType)
      ? "completed_at"
      : "now()";
  await sql(
    em,
    q`update issues set state_id = ${state.id}, state_type = ${state.type}, completed_at = ${raw(completedAt)},
             updated_at = now()
       where id = ${issue.id}`,
  );
}

/**
 * The contract's `PullRequestLink`s of the issue whose id is the SQL expression `issueId`, as a JSON array
 * (most recently updated first): a column for the issue read and the page data.
 */
export function pullRequestsJsonSql(issueId: string): SqlFragment {
  return raw(`coalesce((select json_agg(json_build_object(
              'id', pr.id, 'provider', pr.provider, 'repository', pr.repository, 'number', pr.number,
              'title', pr.title, 'url', pr.url, 'state', pr.state, 'branch', pr.branch, 'closes', pr.closes,
              'updatedAt', ${isoSql("pr.updated_at")})
              order by pr.updated_at desc, pr.id)
            from issue_pull_requests pr where pr.issue_id = ${issueId}), '[]'::json)`);
}
