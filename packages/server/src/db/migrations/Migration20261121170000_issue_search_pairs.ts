import { Migration } from "@mikro-orm/migrations";
import {
  TRACKER_ADJACENT_PAIRS,
  TRACKER_ISSUE_SEARCH_VECTOR,
  TRACKER_PHRASE_QUERY,
} from "../functions/issue-search-vector.js";

/**
 * Phrases from the GIN index. An issue's search vector also holds each pair of adjacent lexemes as one
 * lexeme of its own ("dark mode"; a lexeme the parser never makes, since it holds a space). A search with a
 * quoted phrase then also requires the phrase's pairs (`tracker_phrase_query`), so the GIN index returns
 * the issues where those words stand together instead of every issue holding them anywhere, each of which
 * had its positions rechecked (`"dark mode"`: 69 candidates instead of 1,376, bench/README.md).
 *
 * The column is dropped and added again (with its index) rather than given a new expression in place,
 * which PostgreSQL only allows from version 17.
 */
export class Migration20261121170000_issue_search_pairs extends Migration {
  override async up(): Promise<void> {
    this.addSql(TRACKER_ADJACENT_PAIRS);
    this.addSql(TRACKER_ISSUE_SEARCH_VECTOR);
    // The pairs every quoted phrase requires, ANDed to the query; the query alone when there are none. A
    // phrase with two lexemes at one position (no such output from the english configuration) gives none,
    // and so does a pair that the tsquery syntax would need escaping for.
    this.addSql(TRACKER_PHRASE_QUERY);
    this.addSql('alter table "issues" drop column "search_vector"');
    this.addSql(
      `alter table "issues" add column "search_vector" tsvector generated always as (tracker_issue_search_vector(title, description)) stored null`,
    );
    this.addSql('create index "issues_search_vector_index" on "issues" using gin ("search_vector")');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "issues" drop column "search_vector"');
    this.addSql(
      "alter table \"issues\" add column \"search_vector\" tsvector generated always as (setweight(to_tsvector('english'::regconfig, title), 'A'::\"char\") || setweight(to_tsvector('english'::regconfig, COALESCE(description, ''::text)), 'B'::\"char\")) stored null",
    );
    this.addSql('create index "issues_search_vector_index" on "issues" using gin ("search_vector")');
    this.addSql("drop function tracker_phrase_query(tsquery, text[])");
    this.addSql("drop function tracker_issue_search_vector(text, text)");
    this.addSql("drop function tracker_adjacent_pairs(tsvector)");
  }
}
