/**
 * Import mode (openapi.yaml, `importIssues`): a transaction that imports sets `tracker.importing` for
 * itself alone (`set local`, {@link ENTER_IMPORT_MODE}). While it is set, every change event the transaction
 * records is `imported` (the column's default, migration `import_mode`), whichever write path records it,
 * and the activity it records notifies nobody (`activity_events_notify`, db/functions/issue-notifications.ts).
 */
export const IMPORTING_SQL = "coalesce(current_setting('tracker.importing', true), '') = 'on'";

/** Run inside the importing transaction: the setting ends with it. */
export const ENTER_IMPORT_MODE = "set local tracker.importing = 'on'";
