import { Migration } from "@mikro-orm/migrations";
import {
  ISSUES_SEARCH_RECENT,
  ISSUES_SEARCH_RECENT_TRIGGER,
  TRACKER_SEARCH_RECENT_PRUNE,
  TRACKER_SEARCH_TERMS,
  TRACKER_SEARCH_TERMS_QUERY,
} from "../functions/issue-search-recent.js";

/**
 * `issue_search_recent`: each workspace's recently updated issues with their full-text lexemes, under a GIN
 * index of their own, so a search in `updated` order finds the newest matches of common words among a few
 * thousand issues instead of reading the default sort's index row by row until the page is full
 * (bench/README.md, "Recent issues").
 *
 * - A row per issue (same workspace, team, number and updated_at as the issue), kept by a trigger on
 *   `issues` in the same transaction as every write; a delete cascades. Its `terms` are the issue's lexemes
 *   (the search vector's, without the word pairs) prefixed with the first eight hex digits of the workspace id
 *   (`tracker_search_terms`), so a query of one workspace reads only its own posting lists whatever else
 *   the table holds; a prefix shared with another workspace costs time, never a wrong answer, as the rows
 *   are also filtered by workspace. The index takes each insert at once (no fast-update list, which every
 *   search would read through until a vacuum or an insert flushes it). A write that changes neither the lexemes nor the workspace leaves
 *   `terms` as it is: indexed only by the primary key and GIN, the row is updated in place (HOT).
 * - `issue_search_recent_since`: per workspace, the time from which every issue updated at or after it has
 *   its row (no row: every issue has one). Rows older than that may be left. `tracker_search_recent_prune`
 *   trims each workspace holding more than twice `keep` rows to its `keep` newest: it raises `since` to the
 *   update time of the last one kept and deletes the rows older than that, in one statement, so a search
 *   sees both or neither (`pruneSearchRecent` runs it every ten minutes).
 * - `tracker_search_terms_query`: a query with every lexeme prefixed the same way, so it matches `terms`
 *   exactly when the query matches the issue; null for a query with a phrase, since `terms` keep no positions.
 */
export class Migration20261124130000_issue_search_recent extends Migration {
  override async up(): Promise<void> {
    this.addSql(TRACKER_SEARCH_TERMS);
    this.addSql(TRACKER_SEARCH_TERMS_QUERY);
    this.addSql(`
      create table "issue_search_recent" (
        "issue_id" uuid not null, "workspace_id" uuid not null, "team_id" uuid not null, "number" int not null,
        "updated_at" timestamptz not null, "terms" tsvector not null,
        constraint "issue_search_recent_pkey" primary key ("issue_id")) with (fillfactor = 70)`);
    this.addSql(
      `alter table "issue_search_recent" add constraint "issue_search_recent_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade`,
    );
    this.addSql(`
      create table "issue_search_recent_since" (
        "workspace_id" uuid not null, "since" timestamptz not null,
        constraint "issue_search_recent_since_pkey" primary key ("workspace_id"))`);
    this.addSql(
      `alter table "issue_search_recent_since" add constraint "issue_search_recent_since_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade`,
    );
    this.addSql(ISSUES_SEARCH_RECENT);
    this.addSql(ISSUES_SEARCH_RECENT_TRIGGER);
    this.addSql(TRACKER_SEARCH_RECENT_PRUNE);
    this.addSql(`
      insert into issue_search_recent (issue_id, workspace_id, team_id, number, updated_at, terms)
      select id, workspace_id, team_id, number, updated_at, tracker_search_terms(workspace_id, search_vector)
        from issues`);
    this.addSql("select tracker_search_recent_prune(5000)");
    this.addSql(
      `create index "issue_search_recent_terms_index" on "issue_search_recent" using gin ("terms") with (fastupdate = off)`,
    );
  }

  override async down(): Promise<void> {
    this.addSql("drop trigger issues_search_recent on issues");
    this.addSql("drop function issues_search_recent()");
    this.addSql("drop function tracker_search_recent_prune(int)");
    this.addSql('drop table "issue_search_recent_since"');
    this.addSql('drop table "issue_search_recent"');
    this.addSql("drop function tracker_search_terms_query(uuid, tsquery)");
    this.addSql("drop function tracker_search_terms(uuid, tsvector)");
  }
}
