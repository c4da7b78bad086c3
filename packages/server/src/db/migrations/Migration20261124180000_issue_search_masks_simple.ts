import { Migration } from "@mikro-orm/migrations";
import { TRACKER_SEARCH_MASKS } from "../functions/issue-search-bits.js";
import { TRACKER_SEARCH_MASKS as BRANCH_MASKS } from "./Migration20261124100000_issue_search_branch_masks.js";

/**
 * `tracker_search_masks` without queries inside it: a search statement calls it once per execution, and each
 * query a PL/pgSQL function runs (the `regexp_matches` of each branch, `tracker_search_bits`) starts an
 * executor of its own. The same masks (compared on every query of search.test.ts and the bench's), in half
 * the time: 0.085 -> 0.04 ms per call.
 *
 * - A branch's lexemes are read by its text cast to a tsvector once its operators are blanked out, which
 *   undoes the tsquery quoting exactly. An operator inside a quoted lexeme is blanked too; the lexemes read
 *   back then fail the safeguard (they must satisfy the branch), and the masks are zero (every row passes).
 * - Parentheses (not produced by websearch syntax) give zero masks instead of a split that could be wrong.
 * - The bits are `tracker_search_bits`', in a loop.
 */
export class Migration20261124180000_issue_search_masks_simple extends Migration {
  override async up(): Promise<void> {
    this.addSql(TRACKER_SEARCH_MASKS);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace ${BRANCH_MASKS}`);
  }
}
