import { Migration } from "@mikro-orm/migrations";
import {
  USERS_NAMES_CHANGED_TRIGGER,
  WORKSPACE_NAMES_CHANGED,
  WORKSPACE_NAMES_ON_ROW,
  WORKSPACE_NAMES_ON_TEAM_ROW,
  WORKSPACE_NAMES_ON_USER,
  WORKSPACE_NAMES_TRIGGERS,
} from "../functions/workspace-names-version.js";

/**
 * `workspaces.names_version`: bumped in the same transaction as any change to a name an issue list shows,
 * so a server may cache a workspace's names and trust them exactly while the version a list statement
 * reads equals the cached one (`shared/workspace-names.ts`). Row triggers fire only when a shown column
 * changes: teams (key, name), workflow states (name, type), memberships (who is a member), users (name,
 * email, for every workspace they belong to), projects (name), cycles (number), labels (name); inserts,
 * deletes and moves between workspaces or teams bump both sides. A workspace deleted with everything in it
 * updates nothing. When two workspaces are bumped, the lesser id goes first, so two moves in opposite
 * directions queue instead of deadlocking.
 */
export class Migration20261121120000_workspace_names_version extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "workspaces" add column "names_version" bigint not null default 0');
    this.addSql(WORKSPACE_NAMES_CHANGED);
    // Tables with their own workspace_id.
    this.addSql(WORKSPACE_NAMES_ON_ROW);
    // Tables reached through their team.
    this.addSql(WORKSPACE_NAMES_ON_TEAM_ROW);
    this.addSql(WORKSPACE_NAMES_ON_USER);
    for (const trigger of WORKSPACE_NAMES_TRIGGERS) this.addSql(trigger);
    this.addSql(USERS_NAMES_CHANGED_TRIGGER);
  }
}
