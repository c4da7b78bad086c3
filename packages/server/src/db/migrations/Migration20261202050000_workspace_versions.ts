import { Migration } from "@mikro-orm/migrations";
import {
  CHANGE_EVENTS_WORKSPACE_VERSION_TRIGGER,
  WORKSPACE_VERSION_ON_CHANGE,
} from "../functions/workspace-version.js";

/**
 * `workspace_versions` (entity `events/workspace-version.entity.ts`): one row per workspace, its version
 * bumped at the commit of every transaction that records a change there (db/functions/workspace-version.ts),
 * created by the first one.
 */
export class Migration20261202050000_workspace_versions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "workspace_versions" ("workspace_id" uuid not null, "version" bigint not null, constraint "workspace_versions_pkey" primary key ("workspace_id"))`,
    );
    this.addSql(
      `alter table "workspace_versions" add constraint "workspace_versions_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade`,
    );
    this.addSql(WORKSPACE_VERSION_ON_CHANGE);
    this.addSql(CHANGE_EVENTS_WORKSPACE_VERSION_TRIGGER);
  }

  override async down(): Promise<void> {
    this.addSql("drop trigger change_events_workspace_version on change_events");
    this.addSql("drop function workspace_version_on_change()");
    this.addSql(`drop table "workspace_versions"`);
  }
}
