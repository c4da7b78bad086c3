import { idArrayMirror } from "./id-array-mirror.js";

/**
 * `issues.label_ids`: the issue's label ids, mirroring its `issue_labels` rows. A list page reads them from
 * the rows it already reads instead of probing `issue_labels` once per issue; the names come from the
 * server's cache of the workspace's names (modules/shared/workspace-names.ts). Created by migration
 * `issue_label_ids`.
 */
export const ISSUE_LABEL_IDS = idArrayMirror({
  table: "issues",
  alias: "i",
  column: "label_ids",
  links: "issue_labels",
  linkAlias: "il",
  owner: "issue_id",
  id: "label_id",
  fn: "issue_label_ids",
  trigger: "issue_labels_ids",
  touched: "touched_labels",
});
