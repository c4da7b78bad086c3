import { defineEntity, p } from "@mikro-orm/core";
import { issueRelationTypeValues } from "@tracker/sdk/schema";
import { stateTypeRank } from "../../db/functions/issue-sort-keys.js";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { OPEN_STATE_TYPES_SQL, STATE_TYPES } from "../../rules/state-types.js";
import { Cycle } from "../cycles/cycle.entity.js";
import { Label } from "../labels/label.entity.js";
import { Project } from "../projects/project.entity.js";
import { Team, WorkflowState } from "../teams/team.entity.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

/**
 * The full-text document of an issue: the expression of the stored generated column `search_vector`, which
 * the GIN index `issues_search_vector_index` is built on: title (weight A) and description (B), plus each
 * pair of adjacent lexemes as one lexeme (migration `issue_search_pairs`), which quoted phrases require.
 * Queries match `search_vector`, never this expression: re-computing it costs tens of µs per row, which a
 * phrase query or a filtered ordered scan would pay for every row it reads (bench/README.md).
 */
export const ISSUE_SEARCH_VECTOR = "tracker_issue_search_vector(title, description)";

export const Issue = defineEntity({
  name: "Issue",
  tableName: "issues",
  uniques: [{ properties: ["team", "number"] }],
  indexes: [
    // An imported issue's identity where it came from (`importIssues`): a re-run finds it, never a second.
    {
      name: "issues_source_unique",
      expression: `create unique index "issues_source_unique" on "issues" ("workspace_id", "source_system", "source_id") where "source_system" is not null`,
    },
    // The default sort (-updated) workspace-wide, covering what the list's inner select reads: a filter the
    // index cannot answer (`blocked`, `blocking`) is an index-only scan probing per row instead of a heap
    // fetch per row read, `label` and `no_labels` check the row's label ids in the index, a time window
    // (`createdAfter`, `completedBefore`, ...) checks the row's dates in the index, deep pages skip rows
    // without reading them, and the `state`
    // and `assignee` sorts (which sort every visible issue) read this index instead of the whole table. Its
    // search bits let a full-text search sorted by `updated` skip non-matches without a heap fetch.
    {
      name: "issues_workspace_updated_index",
      expression: `create index "issues_workspace_updated_index" on "issues" ("workspace_id", "updated_at", "team_id", "number") include ("id", "state_id", "state_type", "assignee_id", "search_bits_0", "search_bits_1", "search_bits_2", "search_bits_3", "label_ids", "created_at", "completed_at")`,
    },
    { properties: ["team", "updatedAt"] },
    { properties: ["assignee"] },
    { properties: ["creator"] },
    // Project progress and health (projects module): per project, count issues by state type and find the
    // latest change from the index alone (an index-only scan instead of a heap fetch per issue). It also
    // serves the `project` filter of listIssues, so there is no plain (project_id) index.
    {
      name: "issues_project_progress_index",
      expression: `create index "issues_project_progress_index" on "issues" ("project_id") include ("state_type", "updated_at")`,
    },
    { properties: ["cycle"] },
    { properties: ["state"] },
    { properties: ["parent"] },
    // Sort paths of listIssues (bench/README.md): (workspace, sort key, team, number) is the list's whole
    // order, so a page is an ordered index scan that stops after the page, workspace-wide or with a team
    // filter (team_id is then a constant). `-key` scans the same index backward.
    // `created` as the other sort keys; it also carries what the default sort's top-N reads (`id`,
    // `updated_at`), so a `createdAfter` / `createdBefore` window under any sort is an index-only range scan
    // (a team is checked in the index) instead of an ordered scan that filters every row it reads: windows
    // lie far back in `updated` order when they lie far back in time (bench/README.md, "Time windows").
    {
      name: "issues_workspace_created_index",
      expression: `create index "issues_workspace_created_index" on "issues" ("workspace_id", "created_at", "team_id", "number") include ("id", "updated_at")`,
    },
    { properties: ["workspace", "dueDate", "team", "number"] },
    { properties: ["workspace", "estimate", "team", "number"] },
    {
      name: "issues_workspace_priority_sort_index",
      expression: `create index "issues_workspace_priority_sort_index" on "issues" ("workspace_id", (nullif("priority", 0)), "team_id", "number")`,
    },
    // A `priority` filter in the default order ("urgent bugs": urgent with a label): the page is the first
    // rows of a backward scan within the priority, instead of a walk of the whole workspace by `updated_at`
    // that skips every issue of another priority (bench/README.md, PLANS.md at 1,000,000 issues).
    {
      name: "issues_workspace_priority_updated_index",
      expression: `create index "issues_workspace_priority_updated_index" on "issues" ("workspace_id", (nullif("priority", 0)), "updated_at")`,
    },
    // The `state` and `assignee` sorts, on keys the database keeps (`db/functions/issue-sort-keys.ts`).
    {
      name: "issues_workspace_state_sort_index",
      expression: `create index "issues_workspace_state_sort_index" on "issues" ("workspace_id", (${stateTypeRank('"state_type"')}), "state_position", "team_id", "number")`,
    },
    {
      name: "issues_workspace_assignee_sort_index",
      expression: `create index "issues_workspace_assignee_sort_index" on "issues" ("workspace_id", "assignee_sort", "team_id", "number")`,
    },
    {
      name: "issues_workspace_title_sort_index",
      expression: `create index "issues_workspace_title_sort_index" on "issues" ("workspace_id", lower("title"), "team_id", "number")`,
    },
    // A state, cycle or project filter in the default order: the page is the first rows of a backward scan.
    ...["state", "cycle", "project"].map((ref) => ({
      name: `issues_${ref}_updated_index`,
      expression: `create index "issues_${ref}_updated_index" on "issues" ("${ref}_id", "updated_at", "team_id", "number") include ("workspace_id", "id")`,
    })),
    // The `label` filter: `label_ids @> <the named labels' ids>` (list/filter.ts). Both GIN indexes keep a
    // 256 kB fast-update list, which every scan reads (Migration20261126160000_gin_pending_list_limit).
    {
      name: "issues_label_ids_index",
      expression: `create index "issues_label_ids_index" on "issues" using gin ("label_ids") with (gin_pending_list_limit = 256)`,
    },
    {
      name: "issues_search_vector_index",
      expression: `create index "issues_search_vector_index" on "issues" using gin ("search_vector") with (gin_pending_list_limit = 256)`,
    },
    // Open issues newest first (default sort) with the due date as a key column: `overdue`, `stale`,
    // `due_week` and open `stateType` under the default sort are an index-only scan that checks the due date
    // in the index, and `overdue,blocked` probes the relations of the overdue rows only (bench/README.md).
    {
      name: "issues_open_updated_index",
      expression: `create index "issues_open_updated_index" on "issues" ("workspace_id", "updated_at", "due_date") include ("team_id", "number", "id") where "state_type" in ${OPEN_STATE_TYPES_SQL}`,
    },
    // The same for one team: its open issues newest first, the due date a key column, so one team's
    // `overdue` (and open `stateType`) list reads that team's entries only. On the workspace's index above it
    // read every team's and dropped the others': 918 entries for a page of 51 at 1,000,000 issues, 4-5 ms
    // once fresh open issues without a due date sat at its newest end (bench/README.md).
    {
      name: "issues_team_open_updated_index",
      expression: `create index "issues_team_open_updated_index" on "issues" ("team_id", "updated_at", "due_date") include ("workspace_id", "number", "id") where "state_type" in ${OPEN_STATE_TYPES_SQL}`,
    },
    // `completedAfter` / `completedBefore`: the finished issues by completion time, with what the default
    // sort's top-N reads. Without it, a window of old completions was an ordered scan of the whole workspace.
    {
      name: "issues_workspace_completed_index",
      expression: `create index "issues_workspace_completed_index" on "issues" ("workspace_id", "completed_at") include ("team_id", "number", "id", "updated_at") where "completed_at" is not null`,
    },
    // `countIssues` (list/counts.query.ts): a team's issues, or the workspace's, counted by state, state type,
    // assignee, priority, project or cycle from the index alone (an index-only scan instead of a heap fetch
    // per issue counted: a board's column totals read ~50 issues per index page instead of one per page).
    // Only issues not archived, which is what a count counts unless asked otherwise: the condition is then
    // the index's own (`archivedOnRow` of the filter compiler), not an anti-join needing each issue's id.
    {
      name: "issues_team_counts_index",
      expression: `create index "issues_team_counts_index" on "issues" ("workspace_id", "team_id", "state_id") include ("state_type", "assignee_id", "priority", "project_id", "cycle_id") where "archived_at" is null`,
    },
    // The few blocked (blocking) issues newest first: `blocked` and `blocking`, alone or with another
    // special, are an index-only scan of them.
    {
      name: "issues_blocked_updated_index",
      expression: `create index "issues_blocked_updated_index" on "issues" ("workspace_id", "updated_at") include ("team_id", "number", "id", "due_date", "state_type") where "open_blockers" > 0`,
    },
    {
      name: "issues_blocking_updated_index",
      expression: `create index "issues_blocking_updated_index" on "issues" ("workspace_id", "updated_at") include ("team_id", "number", "id", "due_date", "state_type") where "open_blocking" > 0`,
    },
    // The few archived issues: every list's anti-join with them probes it (`notArchivedSql` in
    // list/filter.ts) without reading the table, and `archived=true` lists them from it.
    {
      name: "issues_archived_index",
      expression: `create index "issues_archived_index" on "issues" ("workspace_id", "id") where "archived_at" is not null`,
    },
  ],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    team: () => p.manyToOne(Team).deleteRule("cascade"),
    number: p.integer(),
    title: p.text(),
    description: p.text().nullable(),
    /** 0 none, 1 urgent, 2 high, 3 medium, 4 low. */
    priority: p.smallint().default(0),
    estimate: p.integer().nullable(),
    dueDate: p.date().nullable(),
    state: () => p.manyToOne(WorkflowState),
    /** Copy of the state's type, kept in step by the issue service: "open" filters and indexes need it. */
    stateType: p.enum([...STATE_TYPES]),
    assignee: () => p.manyToOne(User).nullable().deleteRule("set null"),
    /** The agent the issue is delegated to (openapi.yaml, `Issue.delegate`). */
    delegate: () => p.manyToOne(User).nullable().index().deleteRule("set null"),
    creator: () => p.manyToOne(User).nullable().deleteRule("set null"),
    project: () => p.manyToOne(Project).nullable().deleteRule("set null"),
    cycle: () => p.manyToOne(Cycle).nullable().deleteRule("set null"),
    parent: () =>
      p
        .manyToOne("Issue" as never)
        .nullable()
        .deleteRule("set null"),
    createdAt: createdTimestamp(),
    updatedAt: p.datetime().onCreate(() => new Date()),
    completedAt: p.datetime().nullable(),
    /** Set while the issue is archived (openapi.yaml, `archiveIssue`): lists and project counts leave it out. */
    archivedAt: p.datetime().nullable(),
    /**
     * The issue's identity in the tracker it was imported from (openapi.yaml, `importIssues`): unique per
     * workspace, system and id (index `issues_source_unique`), so a re-run updates instead of duplicating.
     */
    sourceSystem: p.text().nullable(),
    sourceId: p.text().nullable(),
    sourceUrl: p.text().nullable(),
    /**
     * Open issues that block this one, and open issues this one blocks: the `blocked` and `blocking`
     * specials. Kept by triggers on issue_relations and issues (migration `issue_blockers`); never written here.
     */
    openBlockers: p.integer().default(0),
    /**
     * Sort keys of the `state` and `assignee` sorts: the state's workflow position and the assignee's name,
     * lowercased. Kept by triggers on issues and users (migration `issue_sort_keys`); never written here.
     */
    statePosition: p.integer().nullable().lazy(),
    assigneeSort: p.text().nullable().lazy(),
    openBlocking: p.integer().default(0),
    /**
     * The issue's label ids (any order), for list pages. Kept equal to its `issue_labels` by triggers
     * (migration `issue_label_ids`); never written here, never loaded.
     */
    labelIds: p.array().columnType("uuid[]").defaultRaw("'{}'").lazy(),
    /** Generated by PostgreSQL from title and description (ISSUE_SEARCH_VECTOR); never written, never loaded. */
    searchVector: p
      .string()
      .columnType("tsvector")
      .generated(`${ISSUE_SEARCH_VECTOR} stored`)
      .nullable()
      .lazy(),
    /**
     * A 256-bit signature of the search vector's lexemes (`tracker_search_bits`), kept by the trigger
     * `issues_search_bits` when title or description is written (migration `issue_search_bits`), carried by
     * `issues_workspace_updated_index` so a search sorted by `updated` skips non-matches in the index. Never
     * written here, never loaded.
     */
    searchBits0: p.bigint().fieldName("search_bits_0").default(0).lazy(),
    searchBits1: p.bigint().fieldName("search_bits_1").default(0).lazy(),
    searchBits2: p.bigint().fieldName("search_bits_2").default(0).lazy(),
    searchBits3: p.bigint().fieldName("search_bits_3").default(0).lazy(),
  },
});

/**
 * Each workspace's recently updated issues with their lexemes, prefixed per workspace, under a GIN index of
 * their own: a full-text search in `updated` order finds the newest matches among them (migration
 * `issue_search_recent`, `search-recent.ts`). Kept by a trigger on `issues`; never written here.
 */
export const IssueSearchRecent = defineEntity({
  name: "IssueSearchRecent",
  tableName: "issue_search_recent",
  indexes: [
    {
      name: "issue_search_recent_terms_index",
      expression: `create index "issue_search_recent_terms_index" on "issue_search_recent" using gin ("terms") with (fastupdate = off)`,
    },
  ],
  properties: {
    issue: () => p.manyToOne(Issue).primary().deleteRule("cascade"),
    workspaceId: p.uuid(),
    teamId: p.uuid(),
    number: p.integer(),
    updatedAt: p.datetime(),
    terms: p.string().columnType("tsvector"),
  },
});

/** Per workspace, the time from which every updated issue is in `issue_search_recent` (none: every issue). */
export const IssueSearchRecentSince = defineEntity({
  name: "IssueSearchRecentSince",
  tableName: "issue_search_recent_since",
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule("cascade"),
    since: p.datetime(),
  },
});

/**
 * Each label's issues in the default sort's order: a row per issue and label with what the walk of a label
 * filter reads (modules/issues/list/label-walk.ts), under `issue_label_postings_order_index`. Kept by a
 * trigger on `issues` (migration `issue_label_postings`); never written here.
 */
export const IssueLabelPosting = defineEntity({
  name: "IssueLabelPosting",
  tableName: "issue_label_postings",
  indexes: [
    {
      name: "issue_label_postings_order_index",
      expression: `create index "issue_label_postings_order_index" on "issue_label_postings" ("label_id", "updated_at", "team_id", "number") include ("issue_id", "workspace_id", "label_ids")`,
    },
  ],
  properties: {
    issue: () => p.manyToOne(Issue).primary().deleteRule("cascade"),
    labelId: p.uuid().primary(),
    workspaceId: p.uuid(),
    teamId: p.uuid(),
    number: p.integer(),
    updatedAt: p.datetime(),
    labelIds: p.array().columnType("uuid[]"),
  },
});

export const IssueLabel = defineEntity({
  name: "IssueLabel",
  tableName: "issue_labels",
  indexes: [{ properties: ["label"] }],
  properties: {
    issue: () => p.manyToOne(Issue).primary().deleteRule("cascade"),
    label: () => p.manyToOne(Label).primary().deleteRule("cascade"),
  },
});

/** Stored once, from the source issue's side; reads show it from the reader's side. */
export const IssueRelation = defineEntity({
  name: "IssueRelation",
  tableName: "issue_relations",
  uniques: [{ properties: ["issue", "relatedIssue", "type"] }],
  indexes: [
    // "Blocked by": the `blocked` filter probes it once per candidate issue, index-only (type and blocker
    // are in the index); it also serves the foreign key's cascade from related_issue_id.
    {
      name: "issue_relations_related_issue_type_index",
      expression: `create index "issue_relations_related_issue_type_index" on "issue_relations" ("related_issue_id", "type") include ("issue_id")`,
    },
  ],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    type: p.enum([...issueRelationTypeValues]),
    issue: () => p.manyToOne(Issue).deleteRule("cascade"),
    relatedIssue: () => p.manyToOne(Issue).deleteRule("cascade"),
    creator: () => p.manyToOne(User).nullable().deleteRule("set null"),
    createdAt: createdTimestamp(),
  },
});

export const IssueLink = defineEntity({
  name: "IssueLink",
  tableName: "issue_links",
  indexes: [{ properties: ["issue"] }],
  properties: {
    id: uuidPrimaryKey(),
    issue: () => p.manyToOne(Issue).deleteRule("cascade"),
    url: p.text(),
    title: p.text().nullable(),
    createdAt: createdTimestamp(),
  },
});

/** Old identifiers (after a move or a team key change) keep resolving to their issue. */
export const IssueRedirect = defineEntity({
  name: "IssueRedirect",
  tableName: "issue_redirects",
  uniques: [{ properties: ["workspace", "teamKey", "number"] }],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    teamKey: p.text(),
    number: p.integer(),
    issue: () => p.manyToOne(Issue).deleteRule("cascade"),
    createdAt: createdTimestamp(),
  },
});

export const Comment = defineEntity({
  name: "Comment",
  tableName: "comments",
  indexes: [
    { properties: ["issue", "createdAt"] },
    // An imported comment's identity where it came from (`importIssues`), per issue.
    {
      name: "comments_source_unique",
      expression: `create unique index "comments_source_unique" on "comments" ("issue_id", "source_system", "source_id") where "source_system" is not null`,
    },
  ],
  properties: {
    id: uuidPrimaryKey(),
    issue: () => p.manyToOne(Issue).deleteRule("cascade"),
    author: () => p.manyToOne(User).nullable().deleteRule("set null"),
    body: p.text(),
    edited: p.boolean().default(false),
    createdAt: createdTimestamp(),
    updatedAt: p.datetime().onCreate(() => new Date()),
    /** Its identity where it was imported from (`importIssues`): unique per issue, system and id. */
    sourceSystem: p.text().nullable(),
    sourceId: p.text().nullable(),
    sourceUrl: p.text().nullable(),
  },
});

/**
 * An earlier body of an edited comment (openapi.yaml, `listCommentRevisions`): written when an edit
 * replaces it, with when that body was written and when it was replaced. Goes with its comment.
 */
export const CommentRevision = defineEntity({
  name: "CommentRevision",
  tableName: "comment_revisions",
  indexes: [{ properties: ["comment", "replacedAt"] }],
  properties: {
    id: uuidPrimaryKey(),
    comment: () => p.manyToOne(Comment).deleteRule("cascade"),
    body: p.text(),
    writtenAt: p.datetime(),
    replacedAt: p.datetime(),
  },
});

/** Activity on issues, for /my/digest. `payload` documents what changed from what to what. */
export const ActivityEvent = defineEntity({
  name: "ActivityEvent",
  tableName: "activity_events",
  indexes: [{ properties: ["issue", "createdAt"] }, { properties: ["workspace", "createdAt"] }],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    issue: () => p.manyToOne(Issue).nullable().deleteRule("cascade"),
    actor: () => p.manyToOne(User).nullable().deleteRule("set null"),
    type: p.text(),
    payload: p.json<Record<string, unknown>>(),
    createdAt: createdTimestamp(),
  },
});
