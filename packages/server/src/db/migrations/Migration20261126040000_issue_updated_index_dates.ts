import { Migration } from "@mikro-orm/migrations";
import { replaceIndex } from "./replace-index.js";

const COLUMNS = `("workspace_id", "updated_at", "team_id", "number") include ("id", "state_id", "state_type", "assignee_id", "search_bits_0", "search_bits_1", "search_bits_2", "search_bits_3", "label_ids"`;

/**
 * `issues_workspace_updated_index` also carries `created_at` and `completed_at` (declared in
 * `issue.entity.ts`): a `createdAfter` / `createdBefore` / `completedAfter` / `completedBefore` window read in
 * the default sort's order checks each row's dates in the index instead of fetching its heap row. At a
 * million issues a ten-day window a year back read ~7,700 index rows and fetched each one's heap page
 * (20 ms); in the index alone it is a few milliseconds (bench/README.md, "Time windows").
 */
export class Migration20261126040000_issue_updated_index_dates extends Migration {
  override async up(): Promise<void> {
    replaceIndex(
      this,
      "issues_workspace_updated_index",
      `"issues" ${COLUMNS}, "created_at", "completed_at")`,
    );
  }

  override async down(): Promise<void> {
    replaceIndex(this, "issues_workspace_updated_index", `"issues" ${COLUMNS})`);
  }
}
