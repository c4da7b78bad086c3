import { Migration } from "@mikro-orm/migrations";
import { replaceIndex } from "./replace-index.js";

const COLUMNS = `("workspace_id", "updated_at", "team_id", "number") include ("id", "state_id", "state_type", "assignee_id", "search_bits_0", "search_bits_1", "search_bits_2", "search_bits_3"`;

/**
 * `issues_workspace_updated_index` also carries `label_ids` (declared in `issue.entity.ts`): a `label`
 * filter of one common label, and `no_labels`, read the default sort's index in order and check each row's
 * labels in the index, instead of fetching the heap row of every issue read (~1,600 for a page of `bug`).
 */
export class Migration20261126011000_issue_updated_index_label_ids extends Migration {
  override async up(): Promise<void> {
    replaceIndex(this, "issues_workspace_updated_index", `"issues" ${COLUMNS}, "label_ids")`);
  }

  override async down(): Promise<void> {
    replaceIndex(this, "issues_workspace_updated_index", `"issues" ${COLUMNS})`);
  }
}
