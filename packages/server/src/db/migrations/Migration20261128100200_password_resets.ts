import { Migration } from "@mikro-orm/migrations";

/** `password_resets` (entity `modules/sessions/password-reset.entity.ts`): single-use reset links. */
export class Migration20261128100200_password_resets extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "password_resets" ("id" uuid not null, "user_id" uuid not null, "token_hash" text not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null, constraint "password_resets_pkey" primary key ("id"))`,
    );
    this.addSql(`create index "password_resets_user_id_index" on "password_resets" ("user_id")`);
    this.addSql(
      `alter table "password_resets" add constraint "password_resets_token_hash_unique" unique ("token_hash")`,
    );
    this.addSql(
      `alter table "password_resets" add constraint "password_resets_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "password_resets"`);
  }
}
