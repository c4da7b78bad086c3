/**
 * `workspace_versions.version`: moved once by every transaction that records a change in the workspace
 * (`change_events`, `events/record-change.query.ts`: every write of every resource records its changes), so
 * a list answered at one version is the same list while the version holds. The issue list's ETag is derived
 * from it (`modules/issues/list/revalidate.query.ts`).
 *
 * A constraint trigger deferred to the commit, not a bump beside the change: the row's lock is then held
 * from the bump to the end of the commit only, so transactions that record changes in one workspace do not
 * wait for each other while they run (the event stream relies on them committing out of id order). Once per
 * transaction and workspace: later events of the same transaction find the transaction-local mark and skip.
 * Created by migration `workspace_versions`.
 */
export const WORKSPACE_VERSION_ON_CHANGE = `
      create or replace function workspace_version_on_change() returns trigger language plpgsql as $$
      begin
        if current_setting('tracker.version_' || replace(new.workspace_id::text, '-', ''), true) = '1' then
          return null;
        end if;
        perform set_config('tracker.version_' || replace(new.workspace_id::text, '-', ''), '1', true);
        insert into workspace_versions as v (workspace_id, version) values (new.workspace_id, 1)
          on conflict (workspace_id) do update set version = v.version + 1;
        return null;
      end $$`;

export const CHANGE_EVENTS_WORKSPACE_VERSION_TRIGGER = `
      create constraint trigger change_events_workspace_version after insert on change_events
        deferrable initially deferred
        for each row execute function workspace_version_on_change()`;
