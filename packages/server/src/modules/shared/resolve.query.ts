import type { EntityManager } from "@mikro-orm/postgresql";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw, type SqlFragment } from "../../db/sql-fragment.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import type { StateType } from "../../rules/state-types.js";
import { visibleTeamCondition } from "../../rules/visibility.js";

/**
 * Turns the human references people use (ENG, ENG-123, "In Progress", ada@example.org, `me`, cycle 3 or
 * `current`, a project's name) into rows of the caller's workspace, honouring visibility. Anything the
 * caller may not see is "not found", exactly like something that does not exist.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

/**
 * What `find` returns for `id`, or 404 `not_found` with `detail` when it returns nothing. An id that is
 * not a UUID names nothing, whatever its shape (`abc`, `ENG-1`, a name), so it gets the same 404 without
 * reaching the database, where comparing it with a uuid column is a cast error rather than an absence.
 * For parameters that take only an id; references that also take a key or name have resolvers below.
 */
export async function findById<T>(
  id: string,
  detail: string,
  find: (id: string) => Promise<T | null | undefined>,
): Promise<T> {
  const found = isUuid(id) ? await find(id) : undefined;
  if (found == null) throw new NotFound(detail);
  return found;
}

export interface TeamRow {
  id: string;
  key: string;
  name: string;
  personal: boolean;
  owner_id: string | null;
  cycles_enabled: boolean;
  cycle_length_weeks: number;
  estimate_scale: string;
}

/** The {@link TeamRow} columns of a teams alias `t`. */
export const TEAM_ROW_COLUMNS =
  "t.id, t.key, t.name, t.personal, t.owner_id, t.cycles_enabled, t.cycle_length_weeks, t.estimate_scale";

/** The statement's row, or 404 `not_found` with `detail` when it returns none. */
export async function rowOr404<T>(em: EntityManager, statement: SqlFragment, detail: string): Promise<T> {
  const row = await sqlOne<T>(em, statement);
  if (!row) throw new NotFound(detail);
  return row;
}

/** A team by key (case-sensitive, keys are uppercase) or id. */
export function resolveTeam(scope: WorkspaceScope, ref: string): Promise<TeamRow> {
  return rowOr404<TeamRow>(
    scope.em,
    q`select ${raw(TEAM_ROW_COLUMNS)}
       from teams t
      where t.workspace_id = ${scope.workspace.id} and ${isUuid(ref) ? q`t.id = ${ref}` : q`t.key = ${ref}`}
        and ${visibleTeamCondition(scope)}`,
    `No team "${ref}" in this workspace.`,
  );
}

export interface UserRef {
  id: string;
  name: string;
  email: string;
}

/** A member of the workspace by email, id or `me`. */
export async function resolveUser(scope: WorkspaceScope, ref: string): Promise<UserRef> {
  if (ref === "me") return { id: scope.caller.userId, name: scope.caller.name, email: scope.caller.email };
  return rowOr404<UserRef>(
    scope.em,
    q`select u.id, u.name, u.email from users u join memberships m on m.user_id = u.id and m.workspace_id = ${scope.workspace.id}
      where ${isUuid(ref) ? q`u.id = ${ref}` : q`u.email = lower(${ref})`}`,
    `No member "${ref}" in this workspace.`,
  );
}

export interface IssueKey {
  id: string;
  identifier: string;
  teamId: string;
  teamKey: string;
  number: number;
}

/** An issue identifier, `ENG-123`: team key and number. */
export const ISSUE_IDENTIFIER = /^([A-Za-z][A-Za-z0-9]{0,6})-(\d{1,9})$/;

/** The {@link IssueKey} columns of issue `ki` in team `kt`. */
const ISSUE_KEY_COLUMNS = `ki.id, kt.key || '-' || ki.number as identifier, kt.id as "teamId", kt.key as "teamKey", ki.number`;

/**
 * The issues an identifier `key-number` names, as rows `(id, rank)`: the issue holding it now (rank 1), then
 * the one it was redirected to after a move or a team key change (rank 2). `key` and `number` are values,
 * or SQL expressions given as `raw` fragments.
 */
function identifierHits(workspaceId: string, key: unknown, number: unknown): SqlFragment {
  return q`select hi.id, 1 as rank from issues hi join teams ht on ht.id = hi.team_id
           where hi.workspace_id = ${workspaceId} and ht.key = ${key} and hi.number = ${number}
          union all
          select hr.issue_id, 2 from issue_redirects hr
           where hr.workspace_id = ${workspaceId} and hr.team_key = ${key} and hr.number = ${number}`;
}

/**
 * The SELECT behind {@link resolveIssue}, to embed (e.g. as a CTE) where resolving and reading in one
 * statement saves a round trip: at most one row with the {@link IssueKey} columns (`id`, `identifier`,
 * `teamId`, `teamKey`, `number`) of the issue `ref` names, if the caller can see it. An identifier the
 * issue had before a move or a team key change resolves through the recorded redirect; an issue that holds
 * the identifier now wins over a redirect. Undefined when `ref` cannot name an issue at all.
 */
export function issueKeyQuery(scope: WorkspaceScope, ref: string): SqlFragment | undefined {
  const vis = visibleTeamCondition(scope, "kt");
  if (isUuid(ref)) {
    return q`select ${raw(ISSUE_KEY_COLUMNS)} from issues ki join teams kt on kt.id = ki.team_id
             where ki.workspace_id = ${scope.workspace.id} and ki.id = ${ref} and ${vis}`;
  }
  const m = ISSUE_IDENTIFIER.exec(ref.trim());
  if (!m) return undefined;
  const hits = identifierHits(scope.workspace.id, m[1]!.toUpperCase(), Number(m[2]));
  return q`select ${raw(ISSUE_KEY_COLUMNS)}
            from (${hits}) hit
            join issues ki on ki.id = hit.id join teams kt on kt.id = ki.team_id
           where ${vis}
           order by hit.rank limit 1`;
}

/**
 * {@link issueKeyQuery} for many references at once, in one statement of fixed text: rows `(n, <IssueKey
 * columns>)` for each `refs[n]` that names an issue the caller sees, with the same choice (the issue
 * holding an identifier now wins over a redirect). `n` is the reference's index; a reference that cannot
 * name an issue, or names none, has no row.
 */
export function issueKeysQuery(scope: WorkspaceScope, refs: string[]): SqlFragment {
  const vis = visibleTeamCondition(scope, "kt");
  const ws = scope.workspace.id;
  const n: number[] = [];
  const ids: (string | null)[] = [];
  const keys: (string | null)[] = [];
  const numbers: (number | null)[] = [];
  refs.forEach((ref, i) => {
    const m = isUuid(ref) ? undefined : ISSUE_IDENTIFIER.exec(ref.trim());
    if (!isUuid(ref) && !m) return;
    n.push(i);
    ids.push(isUuid(ref) ? ref : null);
    keys.push(m ? m[1]!.toUpperCase() : null);
    numbers.push(m ? Number(m[2]) : null);
  });
  return q`select r.n, k.*
            from unnest(${n}::int[], ${ids}::uuid[], ${keys}::text[], ${numbers}::int[]) as r(n, id, key, number)
            cross join lateral (
              select ${raw(ISSUE_KEY_COLUMNS)}
                from (select r.id, 1 as rank where r.id is not null
                      union all
                      ${identifierHits(ws, raw("r.key"), raw("r.number"))}) hit
                join issues ki on ki.id = hit.id join teams kt on kt.id = ki.team_id
               where (r.id is null or ki.workspace_id = ${ws}) and ${vis}
               order by hit.rank limit 1) k`;
}

/**
 * An issue by identifier (`ENG-123`, case-insensitive) or id. Identifiers that an issue had before a move
 * or a team key change resolve through the recorded redirect. One query ({@link issueKeyQuery}).
 */
export async function resolveIssue(scope: WorkspaceScope, ref: string): Promise<IssueKey> {
  const query = issueKeyQuery(scope, ref);
  const row = query && (await sqlOne<IssueKey>(scope.em, query));
  if (!row) throw new NotFound(`No issue "${ref}" in this workspace.`);
  return row;
}

export interface StateRow {
  id: string;
  name: string;
  type: StateType;
  color: string;
  position: number;
}

/** A team's workflow state by name (case-insensitive) or id. */
export async function resolveState(scope: WorkspaceScope, teamId: string, ref: string): Promise<StateRow> {
  const state = await sqlOne<StateRow>(
    scope.em,
    q`select id, name, type, color, position from workflow_states
      where team_id = ${teamId} and ${isUuid(ref) ? q`id = ${ref}` : q`lower(name) = lower(${ref})`}`,
  );
  if (!state) {
    const names = await sql<{ name: string }>(
      scope.em,
      q`select name from workflow_states where team_id = ${teamId} order by position`,
    );
    throw new NotFound(`No state "${ref}" in this team. States: ${names.map((n) => n.name).join(", ")}.`);
  }
  return state;
}

export interface NamedRow {
  id: string;
  name: string;
}

/** A row of `table` in the caller's workspace by id or name (case-insensitive), or 404 naming `noun`. */
async function resolveNamed(
  scope: WorkspaceScope,
  table: "projects" | "initiatives",
  noun: string,
  ref: string,
): Promise<NamedRow> {
  return rowOr404<NamedRow>(
    scope.em,
    q`select id, name from ${raw(table)} where workspace_id = ${scope.workspace.id} and ${isUuid(ref) ? q`id = ${ref}` : q`lower(name) = lower(${ref})`}`,
    `No ${noun} "${ref}" in this workspace.`,
  );
}

/** A project of the workspace by id or name (case-insensitive). */
export const resolveProject = (scope: WorkspaceScope, ref: string) =>
  resolveNamed(scope, "projects", "project", ref);

/** An initiative of the workspace by id or name (case-insensitive). */
export const resolveInitiative = (scope: WorkspaceScope, ref: string) =>
  resolveNamed(scope, "initiatives", "initiative", ref);

export interface CycleRow {
  id: string;
  number: number;
}

/** A team's cycle by number, or `current`: the cycle whose dates contain now. */
export async function resolveCycle(
  scope: WorkspaceScope,
  teamId: string,
  ref: number | string,
): Promise<CycleRow> {
  const row =
    ref === "current"
      ? await sqlOne<CycleRow>(
          scope.em,
          q`select id, number from cycles where team_id = ${teamId} and starts_at <= now() and ends_at > now()
            order by starts_at desc limit 1`,
        )
      : await sqlOne<CycleRow>(
          scope.em,
          q`select id, number from cycles where team_id = ${teamId} and number = ${Number(ref)}`,
        );
  if (!row)
    throw new NotFound(
      ref === "current" ? "The team has no current cycle." : `No cycle ${ref} in this team.`,
    );
  return row;
}

/**
 * Many issues at once, by identifier (`ENG-123`, case-insensitive, old identifiers through redirects) or
 * id, in one query. Returns them in the order given; any that does not resolve (or that the caller may
 * not see) is 404 naming it, so a request citing several issues either gets all of them or none.
 */
export async function resolveIssues(scope: WorkspaceScope, refs: string[]): Promise<IssueKey[]> {
  if (refs.length === 0) return [];
  const parsed = refs.map((ref, pos) => {
    const m = ISSUE_IDENTIFIER.exec(ref.trim());
    return {
      pos,
      id: isUuid(ref) ? ref : null,
      key: m ? m[1]!.toUpperCase() : null,
      number: m ? Number(m[2]) : null,
    };
  });
  const vis = visibleTeamCondition(scope);
  const rows = await sql<IssueKey & { pos: number }>(
    scope.em,
    q`select r.pos, i.id, t.key || '-' || i.number as identifier, t.id as "teamId", t.key as "teamKey", i.number
       from unnest(${parsed.map((p) => p.pos)}::int[], ${parsed.map((p) => p.id)}::uuid[], ${parsed.map((p) => p.key)}::text[], ${parsed.map((p) => p.number)}::int[]) as r(pos, id, key, number)
       join lateral (
         select i.id, 1 as rank from issues i
          where i.workspace_id = ${scope.workspace.id} and r.id is not null and i.id = r.id
         union all
         select i.id, 2 from issues i join teams t on t.id = i.team_id
          where i.workspace_id = ${scope.workspace.id} and t.key = r.key and i.number = r.number
         union all
         select x.issue_id, 3 from issue_redirects x
          where x.workspace_id = ${scope.workspace.id} and x.team_key = r.key and x.number = r.number
         order by rank
         limit 1
       ) hit on true
       join issues i on i.id = hit.id
       join teams t on t.id = i.team_id
      where ${vis}`,
  );
  const byPos = new Map(rows.map(({ pos, ...issue }) => [pos, issue]));
  const missing = refs.filter((_, pos) => !byPos.has(pos));
  if (missing.length) {
    throw new NotFound(`No issue ${missing.map((m) => `"${m}"`).join(", ")} in this workspace.`);
  }
  return refs.map((_, pos) => byPos.get(pos)!);
}
