import { Migration } from "@mikro-orm/migrations";

/** Earlier bodies of edited comments (openapi.yaml, `listCommentRevisions`). */
export class Migration20261128210000_comment_revisions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "comment_revisions" ("id" uuid not null, "comment_id" uuid not null, "body" text not null, "written_at" timestamptz not null, "replaced_at" timestamptz not null, constraint "comment_revisions_pkey" primary key ("id"))',
    );
    this.addSql(
      'create index "comment_revisions_comment_id_replaced_at_index" on "comment_revisions" ("comment_id", "replaced_at")',
    );
    this.addSql(
      'alter table "comment_revisions" add constraint "comment_revisions_comment_id_foreign" foreign key ("comment_id") references "comments" ("id") on update cascade on delete cascade',
    );
  }
}
