import { Migration } from "@mikro-orm/migrations";
import { WEBHOOK_OUTBOX_FUNCTION, WEBHOOK_OUTBOX_TRIGGER } from "../functions/webhook-outbox.js";

/**
 * The code-host integration (connections, delivery ids acted on, pull requests linked to issues), outbound
 * webhooks (endpoints, and the outbox the trigger on `change_events` fills in each change's transaction:
 * db/functions/webhook-outbox.ts), and the workflow triggers the contract added.
 */

export class Migration20261128150000_integrations extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "webhook_endpoints" ("id" uuid not null, "workspace_id" uuid not null, "url" text not null, "events" text[] not null, "team_id" uuid null, "secret_sealed" text not null, "enabled" boolean not null default true, "disabled_reason" text null, "failing_since" timestamptz null, "created_at" timestamptz not null, constraint "webhook_endpoints_pkey" primary key ("id"))',
    );
    this.addSql(
      'create index "webhook_endpoints_workspace_id_created_at_index" on "webhook_endpoints" ("workspace_id", "created_at")',
    );
    this.addSql(
      'create table "webhook_deliveries" ("id" uuid not null, "endpoint_id" uuid not null, "message_id" text not null, "event_type" text not null, "payload" text not null, "status" text check ("status" in (\'pending\', \'succeeded\', \'failed\')) not null default \'pending\', "attempts" int not null default 0, "next_attempt_at" timestamptz null, "last_attempt_at" timestamptz null, "response_status" int null, "response_body_prefix" text null, "duration_ms" int null, "error" text null, "created_at" timestamptz not null, constraint "webhook_deliveries_pkey" primary key ("id"))',
    );
    this.addSql(
      'create index "webhook_deliveries_endpoint_id_created_at_index" on "webhook_deliveries" ("endpoint_id", "created_at")',
    );
    this.addSql(
      'create index "webhook_deliveries_due_index" on "webhook_deliveries" ("next_attempt_at") where "status" = \'pending\'',
    );
    this.addSql(
      'create table "issue_pull_requests" ("id" uuid not null, "issue_id" uuid not null, "provider" text check ("provider" in (\'github\')) not null, "repository" text not null, "number" int not null, "title" text not null, "url" text not null, "state" text check ("state" in (\'open\', \'draft\', \'merged\', \'closed\')) not null, "branch" text null, "closes" boolean not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "issue_pull_requests_pkey" primary key ("id"))',
    );
    this.addSql(
      'alter table "issue_pull_requests" add constraint "issue_pull_requests_issue_id_provider_repository_number_unique" unique ("issue_id", "provider", "repository", "number")',
    );
    this.addSql(
      'create table "codehost_deliveries" ("workspace_id" uuid not null, "delivery_id" text not null, "body_sha256" text not null, "event" text not null, "received_at" timestamptz not null, constraint "codehost_deliveries_pkey" primary key ("workspace_id", "delivery_id"))',
    );
    this.addSql(
      'create index "codehost_deliveries_received_at_index" on "codehost_deliveries" ("received_at")',
    );
    this.addSql(
      'alter table "codehost_deliveries" add constraint "codehost_deliveries_workspace_id_body_sha256_unique" unique ("workspace_id", "body_sha256")',
    );
    this.addSql(
      'create table "codehost_connections" ("workspace_id" uuid not null, "provider" text check ("provider" in (\'github\')) not null, "secret_sealed" text not null, "created_at" timestamptz not null, constraint "codehost_connections_pkey" primary key ("workspace_id"))',
    );
    this.addSql(
      'alter table "webhook_endpoints" add constraint "webhook_endpoints_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "webhook_endpoints" add constraint "webhook_endpoints_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "issue_pull_requests" add constraint "issue_pull_requests_issue_id_foreign" foreign key ("issue_id") references "issues" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "codehost_deliveries" add constraint "codehost_deliveries_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "codehost_connections" add constraint "codehost_connections_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade',
    );
    this.addSql('alter table "workflow_rules" drop constraint if exists "workflow_rules_trigger_check"');
    this.addSql(
      "alter table \"workflow_rules\" add constraint \"workflow_rules_trigger_check\" check(\"trigger\" in ('pr_opened', 'pr_draft', 'pr_ready_for_review', 'pr_review_requested', 'pr_merged', 'pr_closed'))",
    );
    this.addSql(WEBHOOK_OUTBOX_FUNCTION);
    this.addSql(WEBHOOK_OUTBOX_TRIGGER);
  }
}
