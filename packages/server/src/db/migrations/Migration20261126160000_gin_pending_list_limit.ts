import { Migration } from "@mikro-orm/migrations";

/**
 * A 256 kB fast-update list on the GIN indexes that writes feed: issue search (`issues_search_vector_index`),
 * the label filter (`issues_label_ids_index`) and document search (`documents_search_index`), declared in the
 * entities. A GIN index appends new entries to an unsorted list that every scan of the index reads in full,
 * until an insert finds the list past this limit and merges it. PostgreSQL's default, 4 MB, left a search
 * reading ~290 pages of list on average while issues were being written (+1.1 ms), and the insert that merged
 * it waiting 0.5–0.9 s. At 256 kB the list stays under 40 pages and every insert under 0.1 s, with as many
 * inserts a second within the runs' noise (bench/README.md, "The full-text index's fast-update list").
 */
const INDEXES = ["issues_search_vector_index", "issues_label_ids_index", "documents_search_index"];

export class Migration20261126160000_gin_pending_list_limit extends Migration {
  override async up(): Promise<void> {
    for (const index of INDEXES) this.addSql(`alter index "${index}" set (gin_pending_list_limit = 256)`);
  }

  override async down(): Promise<void> {
    for (const index of INDEXES) this.addSql(`alter index "${index}" reset (gin_pending_list_limit)`);
  }
}
