import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261121053252_identity } from "./Migration20261121053252_identity.js";
import { Migration20261121053442_domain } from "./Migration20261121053442_domain.js";
import { Migration20261121053732_personal_space_unique } from "./Migration20261121053732_personal_space_unique.js";
import { Migration20261121053755_cycle_counters } from "./Migration20261121053755_cycle_counters.js";
import { Migration20261121054917_issue_sort_indexes } from "./Migration20261121054917_issue_sort_indexes.js";
import { Migration20261121060101_project_progress_index } from "./Migration20261121060101_project_progress_index.js";
import { Migration20261121060327_drop_redundant_issue_project_index } from "./Migration20261121060327_drop_redundant_issue_project_index.js";
import { Migration20261121064542_list_query_indexes } from "./Migration20261121064542_list_query_indexes.js";
import { Migration20261121074305_project_issue_counts } from "./Migration20261121074305_project_issue_counts.js";
import { Migration20261121080229_issue_blockers } from "./Migration20261121080229_issue_blockers.js";
import { Migration20261121120000_workspace_names_version } from "./Migration20261121120000_workspace_names_version.js";
import { Migration20261121123000_issue_label_ids } from "./Migration20261121123000_issue_label_ids.js";
import { Migration20261121140000_project_team_ids } from "./Migration20261121140000_project_team_ids.js";
import { Migration20261121160000_issue_search_bits } from "./Migration20261121160000_issue_search_bits.js";
import { Migration20261121170000_issue_search_pairs } from "./Migration20261121170000_issue_search_pairs.js";
import { Migration20261124100000_issue_search_branch_masks } from "./Migration20261124100000_issue_search_branch_masks.js";
import { Migration20261124130000_issue_search_recent } from "./Migration20261124130000_issue_search_recent.js";
import { Migration20261124180000_issue_search_masks_simple } from "./Migration20261124180000_issue_search_masks_simple.js";
import { Migration20261125140000_idempotent_requests } from "./Migration20261125140000_idempotent_requests.js";
import { Migration20261125160000_issue_time_window_indexes } from "./Migration20261125160000_issue_time_window_indexes.js";
import { Migration20261125180000_issue_sort_keys } from "./Migration20261125180000_issue_sort_keys.js";
import { Migration20261126010000_issue_label_ids_index } from "./Migration20261126010000_issue_label_ids_index.js";
import { Migration20261126011000_issue_updated_index_label_ids } from "./Migration20261126011000_issue_updated_index_label_ids.js";
import { Migration20261126012000_issue_reference_updated_indexes } from "./Migration20261126012000_issue_reference_updated_indexes.js";
import { Migration20261126040000_issue_updated_index_dates } from "./Migration20261126040000_issue_updated_index_dates.js";
import { Migration20261126041000_auth_epoch } from "./Migration20261126041000_auth_epoch.js";
import { Migration20261126060000_issue_label_postings } from "./Migration20261126060000_issue_label_postings.js";
import { Migration20261126160000_gin_pending_list_limit } from "./Migration20261126160000_gin_pending_list_limit.js";
import { Migration20261128100000_people_sign_in } from "./Migration20261128100000_people_sign_in.js";
import { Migration20261128100100_sign_in_failures } from "./Migration20261128100100_sign_in_failures.js";
import { Migration20261128100200_password_resets } from "./Migration20261128100200_password_resets.js";
import { Migration20261128110000_api_key_access } from "./Migration20261128110000_api_key_access.js";
import { Migration20261128110100_oauth_store } from "./Migration20261128110100_oauth_store.js";
import { Migration20261128140000_notifications } from "./Migration20261128140000_notifications.js";
import { Migration20261128150000_integrations } from "./Migration20261128150000_integrations.js";
import { Migration20261128160000_attachments } from "./Migration20261128160000_attachments.js";
import { Migration20261128170000_sso } from "./Migration20261128170000_sso.js";
import { Migration20261128180000_issue_archive } from "./Migration20261128180000_issue_archive.js";
import { Migration20261128190000_issue_counts_index } from "./Migration20261128190000_issue_counts_index.js";
import { Migration20261128210000_comment_revisions } from "./Migration20261128210000_comment_revisions.js";
import { Migration20261128220000_priority_updated_index } from "./Migration20261128220000_priority_updated_index.js";
import { Migration20261128230000_team_state_counts } from "./Migration20261128230000_team_state_counts.js";
import { Migration20261129000000_team_state_counts_per_statement } from "./Migration20261129000000_team_state_counts_per_statement.js";
import { Migration20261129010000_team_open_updated_index } from "./Migration20261129010000_team_open_updated_index.js";
import { Migration20261130090000_rate_limit_buckets } from "./Migration20261130090000_rate_limit_buckets.js";
import { Migration20261201120000_account_settings } from "./Migration20261201120000_account_settings.js";
import { Migration20261201130000_import_mode } from "./Migration20261201130000_import_mode.js";
import { Migration20261202034235_agents } from "./Migration20261202034235_agents.js";
import { Migration20261202050000_workspace_versions } from "./Migration20261202050000_workspace_versions.js";

/** Applied in this order on every start. Add each new migration here (npm run migration:create). */
export const migrationsList: MigrationObject[] = [
  { name: "Migration20261121053252_identity", class: Migration20261121053252_identity },
  { name: "Migration20261121053442_domain", class: Migration20261121053442_domain },
  {
    name: "Migration20261121053732_personal_space_unique",
    class: Migration20261121053732_personal_space_unique,
  },
  { name: "Migration20261121053755_cycle_counters", class: Migration20261121053755_cycle_counters },
  { name: "Migration20261121054917_issue_sort_indexes", class: Migration20261121054917_issue_sort_indexes },
  {
    name: "Migration20261121060101_project_progress_index",
    class: Migration20261121060101_project_progress_index,
  },
  {
    name: "Migration20261121060327_drop_redundant_issue_project_index",
    class: Migration20261121060327_drop_redundant_issue_project_index,
  },
  { name: "Migration20261121064542_list_query_indexes", class: Migration20261121064542_list_query_indexes },
  {
    name: "Migration20261121074305_project_issue_counts",
    class: Migration20261121074305_project_issue_counts,
  },
  { name: "Migration20261121080229_issue_blockers", class: Migration20261121080229_issue_blockers },
  {
    name: "Migration20261121120000_workspace_names_version",
    class: Migration20261121120000_workspace_names_version,
  },
  { name: "Migration20261121123000_issue_label_ids", class: Migration20261121123000_issue_label_ids },
  { name: "Migration20261121140000_project_team_ids", class: Migration20261121140000_project_team_ids },
  { name: "Migration20261121160000_issue_search_bits", class: Migration20261121160000_issue_search_bits },
  { name: "Migration20261121170000_issue_search_pairs", class: Migration20261121170000_issue_search_pairs },
  {
    name: "Migration20261124100000_issue_search_branch_masks",
    class: Migration20261124100000_issue_search_branch_masks,
  },
  { name: "Migration20261124130000_issue_search_recent", class: Migration20261124130000_issue_search_recent },
  {
    name: "Migration20261124180000_issue_search_masks_simple",
    class: Migration20261124180000_issue_search_masks_simple,
  },
  { name: "Migration20261125140000_idempotent_requests", class: Migration20261125140000_idempotent_requests },
  {
    name: "Migration20261125160000_issue_time_window_indexes",
    class: Migration20261125160000_issue_time_window_indexes,
  },
  { name: "Migration20261125180000_issue_sort_keys", class: Migration20261125180000_issue_sort_keys },
  {
    name: "Migration20261126010000_issue_label_ids_index",
    class: Migration20261126010000_issue_label_ids_index,
  },
  {
    name: "Migration20261126011000_issue_updated_index_label_ids",
    class: Migration20261126011000_issue_updated_index_label_ids,
  },
  {
    name: "Migration20261126012000_issue_reference_updated_indexes",
    class: Migration20261126012000_issue_reference_updated_indexes,
  },
  {
    name: "Migration20261126040000_issue_updated_index_dates",
    class: Migration20261126040000_issue_updated_index_dates,
  },
  {
    name: "Migration20261126041000_auth_epoch",
    class: Migration20261126041000_auth_epoch,
  },
  {
    name: "Migration20261126060000_issue_label_postings",
    class: Migration20261126060000_issue_label_postings,
  },
  {
    name: "Migration20261126160000_gin_pending_list_limit",
    class: Migration20261126160000_gin_pending_list_limit,
  },
  { name: "Migration20261128100000_people_sign_in", class: Migration20261128100000_people_sign_in },
  { name: "Migration20261128100100_sign_in_failures", class: Migration20261128100100_sign_in_failures },
  { name: "Migration20261128100200_password_resets", class: Migration20261128100200_password_resets },
  { name: "Migration20261128110000_api_key_access", class: Migration20261128110000_api_key_access },
  { name: "Migration20261128110100_oauth_store", class: Migration20261128110100_oauth_store },
  { name: "Migration20261128140000_notifications", class: Migration20261128140000_notifications },
  { name: "Migration20261128150000_integrations", class: Migration20261128150000_integrations },
  { name: "Migration20261128160000_attachments", class: Migration20261128160000_attachments },
  { name: "Migration20261128170000_sso", class: Migration20261128170000_sso },
  { name: "Migration20261128180000_issue_archive", class: Migration20261128180000_issue_archive },
  { name: "Migration20261128190000_issue_counts_index", class: Migration20261128190000_issue_counts_index },
  { name: "Migration20261128210000_comment_revisions", class: Migration20261128210000_comment_revisions },
  {
    name: "Migration20261128220000_priority_updated_index",
    class: Migration20261128220000_priority_updated_index,
  },
  { name: "Migration20261128230000_team_state_counts", class: Migration20261128230000_team_state_counts },
  {
    name: "Migration20261129000000_team_state_counts_per_statement",
    class: Migration20261129000000_team_state_counts_per_statement,
  },
  {
    name: "Migration20261129010000_team_open_updated_index",
    class: Migration20261129010000_team_open_updated_index,
  },
  { name: "Migration20261130090000_rate_limit_buckets", class: Migration20261130090000_rate_limit_buckets },
  { name: "Migration20261201120000_account_settings", class: Migration20261201120000_account_settings },
  { name: "Migration20261201130000_import_mode", class: Migration20261201130000_import_mode },
  { name: "Migration20261202034235_agents", class: Migration20261202034235_agents },
  { name: "Migration20261202050000_workspace_versions", class: Migration20261202050000_workspace_versions },
];
