import { Migration } from "@mikro-orm/migrations";

/** `sign_in_failures` (entity `modules/sessions/sign-in-failure.entity.ts`): decaying failure scores. */
export class Migration20261128100100_sign_in_failures extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "sign_in_failures" ("key" text not null, "score" double precision not null, "updated_at" timestamptz not null, constraint "sign_in_failures_pkey" primary key ("key"))`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "sign_in_failures"`);
  }
}
