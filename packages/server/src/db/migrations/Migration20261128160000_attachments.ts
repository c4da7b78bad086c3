import { Migration } from "@mikro-orm/migrations";

/** Files uploaded to issues (entity `Attachment`, `modules/attachments/`). */
export class Migration20261128160000_attachments extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "attachments" ("id" uuid not null, "issue_id" uuid not null, "uploader_id" uuid null, "filename" text not null, "content_type" text not null, "size" bigint not null, "width" int null, "height" int null, "storage_key" text not null, "created_at" timestamptz not null, constraint "attachments_pkey" primary key ("id"))',
    );
    this.addSql(
      'alter table "attachments" add constraint "attachments_storage_key_unique" unique ("storage_key")',
    );
    this.addSql(
      'create index "attachments_issue_id_created_at_index" on "attachments" ("issue_id", "created_at")',
    );
    this.addSql(
      'alter table "attachments" add constraint "attachments_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "attachments" add constraint "attachments_uploader_id_foreign" foreign key ("uploader_id") references "users" ("id") on update cascade on delete set null',
    );
  }
}
