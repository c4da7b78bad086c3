/**
 * `workspaces.names_version`: bumped in the same transaction as any change to a name an issue list shows,
 * so a server may cache a workspace's names and trust them exactly while the version a list statement
 * reads equals the cached one (modules/shared/workspace-names.ts). Row triggers fire only when a shown
 * column changes: teams (key, name), workflow states (name, type), memberships (who is a member), users
 * (name, email, for every workspace they belong to), projects (name), cycles (number), labels (name);
 * inserts, deletes and moves between workspaces or teams bump both sides. A workspace deleted with
 * everything in it updates nothing. When two workspaces are bumped, the lesser id goes first, so two moves
 * in opposite directions queue instead of deadlocking. Created by migration `workspace_names_version`.
 */

export const WORKSPACE_NAMES_CHANGED = `
      create function workspace_names_changed(a uuid, b uuid) returns void language sql as $$
        update workspaces set names_version = names_version + 1 where id = least(a, b);
        update workspaces set names_version = names_version + 1 where id = greatest(a, b) and a <> b;
      $$`;

export const WORKSPACE_NAMES_ON_ROW = `
      create function workspace_names_on_row() returns trigger language plpgsql as $$
      begin
        perform workspace_names_changed(
          case when tg_op <> 'INSERT' then old.workspace_id end,
          case when tg_op <> 'DELETE' then new.workspace_id end);
        return null;
      end $$`;

export const WORKSPACE_NAMES_ON_TEAM_ROW = `
      create function workspace_names_on_team_row() returns trigger language plpgsql as $$
      begin
        perform workspace_names_changed(
          case when tg_op <> 'INSERT' then (select workspace_id from teams where id = old.team_id) end,
          case when tg_op <> 'DELETE' then (select workspace_id from teams where id = new.team_id) end);
        return null;
      end $$`;

export const WORKSPACE_NAMES_ON_USER = `
      create function workspace_names_on_user() returns trigger language plpgsql as $$
      begin
        update workspaces set names_version = names_version + 1
         where id in (select workspace_id from memberships where user_id = new.id);
        return null;
      end $$`;

/** The row triggers of the tables holding shown names, two per table (insert or delete, update). */
export const WORKSPACE_NAMES_TRIGGERS: string[] = (() => {
  const triggers: string[] = [];
  const tables: { table: string; columns: string[]; fn: string }[] = [
    { table: "teams", columns: ["workspace_id", "key", "name"], fn: "workspace_names_on_row" },
    { table: "memberships", columns: ["workspace_id", "user_id"], fn: "workspace_names_on_row" },
    { table: "projects", columns: ["workspace_id", "name"], fn: "workspace_names_on_row" },
    { table: "labels", columns: ["workspace_id", "name"], fn: "workspace_names_on_row" },
    { table: "workflow_states", columns: ["team_id", "name", "type"], fn: "workspace_names_on_team_row" },
    { table: "cycles", columns: ["team_id", "number"], fn: "workspace_names_on_team_row" },
  ];
  for (const { table, columns, fn } of tables) {
    const row = (side: string) => `(${columns.map((c) => `${side}.${c}`).join(", ")})`;
    triggers.push(`
        create trigger ${table}_names_added_removed after insert or delete on ${table}
          for each row execute function ${fn}()`);
    triggers.push(`
        create trigger ${table}_names_changed after update on ${table}
          for each row when (${row("old")} is distinct from ${row("new")}) execute function ${fn}()`);
  }
  return triggers;
})();

export const USERS_NAMES_CHANGED_TRIGGER = `
      create trigger users_names_changed after update on users
        for each row when ((old.name, old.email) is distinct from (new.name, new.email))
        execute function workspace_names_on_user()`;
