import { dateFromJson, isoFromJson } from "../../../db/sql-time.js";
import type { WorkspaceNames } from "../../shared/workspace-names.js";
import { type IssueOut, type IssueRow, issueFromRow } from "../issue-shape.js";

/**
 * The issue list page as JSON: the rows of the list statement (`issueListQuery`) shaped as the contract's
 * `IssuePage`, either straight to JSON text from the server's cache of names (`pageJson`, the usual way) or,
 * when the cache cannot answer, through `issueFromRow` from the names the statement read (`issuesFromRows`).
 */

export interface IssuePage {
  issues: IssueOut[];
  nextOffset: number | null;
  nextCursor: string | null;
}

type StateType = IssueOut["state"]["type"];

/** A row of the list statement: the issue's own columns, and on the first row the page's references. */
export type ListRow = Pick<
  IssueRow,
  | "id"
  | "number"
  | "title"
  | "description"
  | "priority"
  | "estimate"
  | "dueDate"
  | "delegate"
  | "parentId"
  | "createdAt"
  | "updatedAt"
  | "completedAt"
  | "archivedAt"
> & {
  teamId: string;
  stateId: string;
  assigneeId: string | null;
  projectId: string | null;
  cycleId: string | null;
};
/**
 * A row of the statement that leaves the names to the server's cache: the issue's own fields as JSON text
 * (`own`), its references by id.
 */
export type NamedListRow = Pick<
  ListRow,
  | "id"
  | "number"
  | "teamId"
  | "stateId"
  | "assigneeId"
  | "projectId"
  | "cycleId"
  | "parentId"
  | "createdAt"
  | "updatedAt"
  | "completedAt"
  | "archivedAt"
> & {
  /** `"title":…,"description":…,"priority":…,"estimate":…,"dueDate":…,"delegate":…` */
  own: string;
  /** The issue's label ids (`issues.label_ids`), comma-separated; empty without labels. */
  labelIds: string | null;
  /** On the first row: the workspace's names_version in the statement's snapshot. */
  namesVersion: string | null;
  /** On the first row: the `auth_epoch` version in the statement's snapshot (`http/caller-cache.ts`). */
  authEpoch: string | null;
  /** On the first row: the workspace's list version and today's UTC date (`revalidate.query.ts`). */
  listVersion: string | null;
  /** On the page's last row (when another page follows): its sort keys as a JSON array, for `nextCursor`. */
  sortKeys: string | null;
};
/** A row of the statement that reads the names itself. */
export type FullListRow = ListRow & { refs: PageRefs | null; sortKeys: string | null };

/** Everything the page's issues refer to, once each, keyed by id (labels: by issue id). */
export interface PageRefs {
  teams: Record<string, [key: string, name: string]> | null;
  states: Record<string, [name: string, type: StateType]> | null;
  users: Record<string, [name: string, email: string]> | null;
  projects: Record<string, string> | null;
  cycles: Record<string, number> | null;
  labels: Record<string, string[]> | null;
}

/** The JSON text of each reference a row names, from the cached names. */
interface RowRefs {
  team: { key: string; json: string };
  state: string;
  assignee: string;
  project: string;
  cycle: string;
  labels: string;
}

/**
 * Where a list page takes a field of the contract's `Issue` from: `own`, an SQL expression over `issues i`
 * giving the field's JSON text, which the list statement concatenates into one column (`own`,
 * {@link ISSUE_OWN_JSON_SQL}); or `json`, the field's JSON text made from the row and its references.
 */
type PageField = { own: string } | { json: (row: NamedListRow, refs: RowRefs) => string };

const quoted = (text: string | null) => (text === null ? "null" : `"${text}"`);

/**
 * Every field of the contract's `Issue`, in the contract's order, as a list page writes it. Typed against
 * the generated contract types, so a field added to or dropped from `Issue` fails to compile until it is
 * here; `page-json.test.ts` checks the order and the names against `openapi.yaml`.
 */
export const ISSUE_PAGE_FIELDS = {
  id: { json: (r) => `"${r.id}"` },
  identifier: { json: (r, refs) => JSON.stringify(`${refs.team.key}-${r.number}`) },
  title: { own: "to_json(i.title)::text" },
  description: { own: "coalesce(to_json(i.description)::text, 'null')" },
  priority: { own: "i.priority" },
  estimate: { own: "coalesce(i.estimate::text, 'null')" },
  dueDate: { own: "coalesce(to_json(i.due_date)::text, 'null')" },
  delegate: {
    own: "coalesce((select json_build_object('id', sd.id, 'name', sd.name)::text from users sd where sd.id = i.delegate_id), 'null')",
  },
  team: { json: (_, refs) => refs.team.json },
  state: { json: (_, refs) => refs.state },
  assignee: { json: (_, refs) => refs.assignee },
  project: { json: (_, refs) => refs.project },
  cycle: { json: (_, refs) => refs.cycle },
  labels: { json: (_, refs) => refs.labels },
  parentId: { json: (r) => quoted(r.parentId) },
  createdAt: { json: (r) => quoted(isoFromJson(r.createdAt)) },
  updatedAt: { json: (r) => quoted(isoFromJson(r.updatedAt)) },
  completedAt: { json: (r) => quoted(isoFromJson(r.completedAt)) },
  archivedAt: { json: (r) => quoted(isoFromJson(r.archivedAt)) },
} satisfies Record<keyof IssueOut, PageField>;

const FIELDS = Object.entries(ISSUE_PAGE_FIELDS) as [keyof IssueOut, PageField][];
const OWN_FIELDS = FIELDS.filter((f): f is [keyof IssueOut, { own: string }] => "own" in f[1]);

/**
 * The `own` column of the list statement: the issue's `own` fields as one JSON text
 * (`"title":…,"description":…`), which the page's JSON takes as it is.
 */
export const ISSUE_OWN_JSON_SQL = OWN_FIELDS.map(
  ([name, field], n) => `'${n ? "," : ""}"${name}":' || ${field.own}`,
).join("\n            || ");

/** Writes one field of a row (`"name":value`), or the whole `own` text at the first `own` field. */
type FieldWriter = (row: NamedListRow, refs: RowRefs) => string;

const FIELD_WRITERS: FieldWriter[] = (() => {
  const first = FIELDS.findIndex(([, f]) => "own" in f);
  const own = FIELDS.slice(first, first + OWN_FIELDS.length);
  // The `own` column holds its fields side by side: they must stand together in the list too.
  if (own.some(([, f]) => !("own" in f))) throw new Error("ISSUE_PAGE_FIELDS: `own` fields must be adjacent");
  return FIELDS.flatMap(([name, field], n): FieldWriter[] => {
    if (!("own" in field)) {
      const key = `"${name}":`;
      return [(row, refs) => key + field.json(row, refs)];
    }
    return n === first ? [(row) => row.own] : [];
  });
})();

/**
 * Per cached names (one version of a workspace's), each reference's JSON as a page shows it, made the first
 * time a page needs it: a team, state, assignee, project and cycle by id, and the label names of each
 * `label_ids` text (pages repeat the same few combinations). Null for an id the names do not hold. Bounded
 * per version, as label combinations are many.
 */
interface Fragments {
  teams: Map<string, { key: string; json: string } | null>;
  states: Map<string, string | null>;
  users: Map<string, string | null>;
  projects: Map<string, string | null>;
  cycles: Map<string, string | null>;
  labels: Map<string, string | null>;
}
const fragmentsOf = new WeakMap<WorkspaceNames, Fragments>();
const FRAGMENTS_MAX = 4096;

function fragments(names: WorkspaceNames): Fragments {
  let f = fragmentsOf.get(names);
  if (!f) {
    f = {
      teams: new Map(),
      states: new Map(),
      users: new Map(),
      projects: new Map(),
      cycles: new Map(),
      labels: new Map(),
    };
    fragmentsOf.set(names, f);
  }
  return f;
}

/** `map`'s entry for `key`, made by `make` the first time. */
function memo<V>(map: Map<string, V>, key: string, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    if (map.size >= FRAGMENTS_MAX) map.clear();
    map.set(key, v);
  }
  return v;
}

/** The label names of comma-separated label ids, in the order the contract shows them; null if one is unknown. */
function labelNames(names: WorkspaceNames, ids: string): string[] | null {
  const named: [string, number][] = [];
  for (const id of ids.split(",")) {
    const label = names.labels[id];
    if (!label) return null;
    named.push(label);
  }
  return named.sort((a, b) => a[1] - b[1]).map(([name]) => name);
}

/**
 * The page's JSON text, as `JSON.stringify` of `IssuePage` would write it: each issue's fields as
 * {@link ISSUE_PAGE_FIELDS} says, its references from the cached names' fragments. Undefined when a row
 * refers to something the names do not hold. The page's rows are neither turned into objects nor
 * serialised again: those were a third of a list request's server time (bench/README.md).
 */
export function pageJson(
  rows: NamedListRow[],
  names: WorkspaceNames,
  nextOffset: number | null,
  nextCursor: string | null = null,
): string | undefined {
  const f = fragments(names);
  const parts: string[] = [];
  for (const r of rows) {
    const team = memo(f.teams, r.teamId, () => {
      const t = names.teams[r.teamId];
      return t ? { key: t[0], json: JSON.stringify({ id: r.teamId, key: t[0], name: t[1] }) } : null;
    });
    const state = memo(f.states, r.stateId, () => {
      const s = names.states[r.stateId];
      return s ? JSON.stringify({ id: r.stateId, name: s[0], type: s[1] }) : null;
    });
    const assignee = r.assigneeId
      ? memo(f.users, r.assigneeId, () => {
          const u = names.users[r.assigneeId!];
          return u ? JSON.stringify({ id: r.assigneeId, name: u[0], email: u[1] }) : null;
        })
      : "null";
    const project = r.projectId
      ? memo(f.projects, r.projectId, () => {
          const p = names.projects[r.projectId!];
          return p === undefined ? null : JSON.stringify({ id: r.projectId, name: p });
        })
      : "null";
    const cycle = r.cycleId
      ? memo(f.cycles, r.cycleId, () => {
          const c = names.cycles[r.cycleId!];
          return c === undefined ? null : JSON.stringify({ id: r.cycleId, number: c });
        })
      : "null";
    const labels = r.labelIds
      ? memo(f.labels, r.labelIds, () => {
          const named = labelNames(names, r.labelIds!);
          return named && JSON.stringify(named);
        })
      : "[]";
    if (!team || !state || !assignee || !project || !cycle || !labels) return undefined;
    const refs: RowRefs = { team, state, assignee, project, cycle, labels };
    parts.push(`{${FIELD_WRITERS.map((write) => write(r, refs)).join(",")}}`);
  }
  return `{"issues":[${parts.join(",")}],"nextOffset":${nextOffset ?? "null"},"nextCursor":${JSON.stringify(nextCursor)}}`;
}

/**
 * Shapes the list rows as the contract's `Issue` ({@link issueFromRow}), resolving references through
 * `refs`; undefined when a row refers to something `refs` does not know.
 */
export function issuesFromRows(rows: ListRow[], refs: PageRefs | null | undefined): IssueOut[] | undefined {
  const out: IssueOut[] = [];
  for (const r of rows) {
    const team = refs?.teams?.[r.teamId];
    const state = refs?.states?.[r.stateId];
    const assignee = r.assigneeId ? refs?.users?.[r.assigneeId] : undefined;
    const project = r.projectId ? refs?.projects?.[r.projectId] : undefined;
    const cycle = r.cycleId ? refs?.cycles?.[r.cycleId] : undefined;
    if (
      !team ||
      !state ||
      (r.assigneeId && !assignee) ||
      (r.projectId && project === undefined) ||
      (r.cycleId && cycle === undefined)
    )
      return undefined;
    const row: IssueRow = {
      ...r,
      dueDate: dateFromJson(r.dueDate),
      team: { id: r.teamId, key: team[0], name: team[1] },
      state: { id: r.stateId, name: state[0], type: state[1] },
      assignee: assignee ? { id: r.assigneeId!, name: assignee[0], email: assignee[1] } : null,
      project: r.projectId ? { id: r.projectId, name: project! } : null,
      cycle: r.cycleId ? { id: r.cycleId, number: cycle! } : null,
      labels: refs?.labels?.[r.id] ?? [],
      createdAt: isoFromJson(r.createdAt)!,
      updatedAt: isoFromJson(r.updatedAt)!,
      completedAt: isoFromJson(r.completedAt),
      archivedAt: isoFromJson(r.archivedAt),
    };
    out.push(issueFromRow(row));
  }
  return out;
}
