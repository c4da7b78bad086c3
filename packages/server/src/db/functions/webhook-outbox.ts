/**
 * The outbound webhooks' outbox (modules/webhooks): every insert into `change_events` also inserts, in the
 * same statement and so the same transaction, one `webhook_deliveries` row per enabled endpoint of the
 * workspace whose filters take the change. A committed change is therefore queued for every endpoint it
 * concerns, however the server dies afterwards, and a rolled-back change for none. The row holds the body
 * as it will be sent (the contract's `WebhookEvent`: the stream's `ChangeEvent` with the workspace and the
 * stream id), so later renames or pruned events change nothing. Changes in personal spaces are never sent
 * (nobody but their owner sees them). Rows that were queued send a NOTIFY on `tracker_webhooks`, delivered on
 * commit, which wakes the dispatchers at once. A statement trigger reading the inserted rows as a table:
 * a workspace without endpoints pays one index probe per statement. Created by migration `webhooks`.
 */
export const WEBHOOK_CHANNEL = "tracker_webhooks";

/**
 * The outbox function; with `imported`, as migration `import_mode` replaced it: the body's data carries
 * `imported: true` for a change an import wrote (openapi.yaml, `ChangeEvent`).
 */
const webhookOutboxFunction = (imported: boolean) => `
      create ${imported ? "or replace " : ""}function webhook_outbox_on_change() returns trigger language plpgsql as $$
      declare
        queued bigint;
      begin
        with queued_rows as (
          insert into webhook_deliveries
            (id, endpoint_id, message_id, event_type, payload, status, attempts, next_attempt_at, created_at)
          select gen_random_uuid(), e.id, 'msg_' || c.id, c.entity || '.' || c.action,
                 json_build_object(
                   'type', c.entity || '.' || c.action,
                   'timestamp', to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                   'data', json_strip_nulls(json_build_object(
                     'entity', c.entity, 'action', c.action, 'id', c.entity_id,
                     'identifier', c.identifier, 'teamKey', c.team_key,
                     'at', to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                     'eventId', c.id::text,${imported ? "\n                     'imported', case when c.imported then true end," : ""}
                     'workspace', json_build_object('id', w.id, 'slug', w.slug))))::text,
                 'pending', 0, now(), now()
            from new_changes c
            join webhook_endpoints e on e.workspace_id = c.workspace_id and e.enabled
            join workspaces w on w.id = c.workspace_id
           where (e.team_id is null or e.team_id = c.team_id)
             and ('*' = any(e.events) or c.entity = any(e.events) or c.entity || '.*' = any(e.events)
                  or c.entity || '.' || c.action = any(e.events))
             and not exists (select 1 from teams t where t.id = c.team_id and t.personal)
          returning 1)
        select count(*) into queued from queued_rows;
        if queued > 0 then
          perform pg_notify('${WEBHOOK_CHANNEL}', '');
        end if;
        return null;
      end $$`;

/** As migration `integrations` created it. */
export const WEBHOOK_OUTBOX_FUNCTION = webhookOutboxFunction(false);
/** The current definition (migration `import_mode`). */
export const WEBHOOK_OUTBOX_FUNCTION_IMPORTED = webhookOutboxFunction(true);

export const WEBHOOK_OUTBOX_TRIGGER = `
      create trigger change_events_webhook_outbox after insert on change_events
        referencing new table as new_changes
        for each statement execute function webhook_outbox_on_change()`;
