import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { WEBHOOK_CHANNEL } from "../../db/functions/webhook-outbox.js";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import { isoSql } from "../../db/sql-time.js";

/** The SQL of outbound webhooks: endpoints, the delivery log, and the dispatcher's claims and results. */

export type WebhookOut = components["schemas"]["Webhook"];
export type DeliveryOut = components["schemas"]["WebhookDelivery"];

/** The contract's `Webhook`, over `webhook_endpoints e`. */
const WEBHOOK_COLUMNS = raw(`e.id, e.url, e.events, e.enabled, e.disabled_reason as "disabledReason",
  ${isoSql("e.failing_since")} as "failingSince", ${isoSql("e.created_at")} as "createdAt",
  (select json_build_object('id', t.id, 'key', t.key, 'name', t.name) from teams t where t.id = e.team_id) as team`);

/** The contract's `WebhookDelivery`, over `webhook_deliveries d`. */
const DELIVERY_COLUMNS =
  raw(`d.id, d.message_id as "messageId", d.event_type as "eventType", d.status, d.attempts,
  d.response_status as "responseStatus", d.response_body_prefix as "responseBodyPrefix", d.duration_ms as "durationMs",
  d.error, ${isoSql("d.created_at")} as "createdAt", ${isoSql("d.last_attempt_at")} as "lastAttemptAt",
  ${isoSql("d.next_attempt_at")} as "nextAttemptAt"`);

export async function listEndpoints(em: EntityManager, workspaceId: string): Promise<WebhookOut[]> {
  return sql<WebhookOut>(
    em,
    q`select ${WEBHOOK_COLUMNS} from webhook_endpoints e where e.workspace_id = ${workspaceId}
       order by e.created_at, e.id`,
  );
}

export async function endpointOf(
  em: EntityManager,
  workspaceId: string,
  id: string,
): Promise<WebhookOut | undefined> {
  return sqlOne<WebhookOut>(
    em,
    q`select ${WEBHOOK_COLUMNS} from webhook_endpoints e where e.workspace_id = ${workspaceId} and e.id = ${id}`,
  );
}

export async function insertEndpoint(
  em: EntityManager,
  workspaceId: string,
  input: { url: string; events: string[]; teamId: string | null; secretSealed: string },
): Promise<WebhookOut> {
  const row = await sqlOne<WebhookOut>(
    em,
    q`with e as (
       insert into webhook_endpoints (id, workspace_id, url, events, team_id, secret_sealed, enabled, created_at)
       values (gen_random_uuid(), ${workspaceId}, ${input.url}, ${input.events}::text[], ${input.teamId},
               ${input.secretSealed}, true, now()) returning *)
     select ${WEBHOOK_COLUMNS} from e`,
  );
  return row!;
}

export async function updateEndpoint(
  em: EntityManager,
  workspaceId: string,
  id: string,
  input: { url?: string; events?: string[]; teamId?: string | null; enabled?: boolean },
): Promise<WebhookOut | undefined> {
  const enabled = input.enabled ?? null;
  return sqlOne<WebhookOut>(
    em,
    q`with e as (
       update webhook_endpoints set
         url = coalesce(${input.url ?? null}::text, url),
         events = coalesce(${input.events ?? null}::text[], events),
         team_id = case when ${input.teamId !== undefined}::boolean then ${input.teamId ?? null}::uuid else team_id end,
         enabled = coalesce(${enabled}::boolean, enabled),
         disabled_reason = case when ${enabled}::boolean is not null then null else disabled_reason end,
         failing_since = case when ${input.enabled === true}::boolean and not enabled then null else failing_since end
       where workspace_id = ${workspaceId} and id = ${id} returning *)
     select ${WEBHOOK_COLUMNS} from e`,
  );
}

export async function deleteEndpoint(em: EntityManager, workspaceId: string, id: string): Promise<boolean> {
  const row = await sqlOne(
    em,
    q`delete from webhook_endpoints where workspace_id = ${workspaceId} and id = ${id} returning 1 as gone`,
  );
  return row !== undefined;
}

export async function listDeliveries(
  em: EntityManager,
  endpointId: string,
  opts: { limit: number; status?: string },
): Promise<DeliveryOut[]> {
  return sql<DeliveryOut>(
    em,
    q`select ${DELIVERY_COLUMNS} from webhook_deliveries d
       where d.endpoint_id = ${endpointId} and (${opts.status ?? null}::text is null or d.status = ${opts.status ?? null}::text)
       order by d.created_at desc, d.id desc limit ${opts.limit}`,
  );
}

/** A new pending delivery of an existing one's event (same message id), due now; wakes the dispatchers. */
export async function redeliver(
  em: EntityManager,
  endpointId: string,
  deliveryId: string,
): Promise<DeliveryOut | undefined> {
  return sqlOne<DeliveryOut>(
    em,
    q`with d as (
       insert into webhook_deliveries
         (id, endpoint_id, message_id, event_type, payload, status, attempts, next_attempt_at, created_at)
       select gen_random_uuid(), o.endpoint_id, o.message_id, o.event_type, o.payload, 'pending', 0, now(), now()
         from webhook_deliveries o where o.endpoint_id = ${endpointId} and o.id = ${deliveryId}
       returning *),
     woken as (select pg_notify(${WEBHOOK_CHANNEL}, '') from d)
     select ${DELIVERY_COLUMNS}, (select count(*) from woken) as woken from d`,
  );
}

/** A delivery claimed for one attempt, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  workspaceId: string;
  url: string;
  secretSealed: string;
  messageId: string;
  payload: string;
  attempts: number;
  /** Epoch ms of the delivery's creation: retries stop 24 h (the give-up window) after it. */
  createdAtMs: number;
}

/**
 * Claims up to `limit` due deliveries of enabled endpoints for one attempt each, at most `perEndpoint` of any
 * one endpoint and none of `busy` endpoints (those this instance already sends `perEndpoint` to), oldest
 * due first. A claim is a lease: `next_attempt_at` moves `leaseMs` ahead and `attempts` up in the same
 * statement, so other instances (SKIP LOCKED) and later claims pass it by, and a claim whose instance died
 * before recording the attempt's result is due again once the lease runs out: at least once.
 */
export async function claimDue(
  em: EntityManager,
  opts: { limit: number; perEndpoint: number; busy: string[]; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  return sql<ClaimedDelivery>(
    em,
    q`with due as (
        select d.id, d.endpoint_id, d.next_attempt_at from webhook_deliveries d
         where d.status = 'pending' and d.next_attempt_at <= now() and d.endpoint_id <> all(${opts.busy}::uuid[])
         order by d.next_attempt_at limit ${opts.limit} * 4
         for update of d skip locked),
      picked as (
        select r.id from (
          select due.id, due.next_attempt_at,
                 row_number() over (partition by due.endpoint_id order by due.next_attempt_at) as n
            from due join webhook_endpoints e on e.id = due.endpoint_id and e.enabled) r
         where r.n <= ${opts.perEndpoint} order by r.next_attempt_at limit ${opts.limit}),
      claimed as (
        update webhook_deliveries d
           set next_attempt_at = now() + (${opts.leaseMs} * interval '1 millisecond'), attempts = d.attempts + 1,
               last_attempt_at = now()
          from picked where d.id = picked.id
        returning d.*)
     select c.id, c.endpoint_id as "endpointId", e.workspace_id as "workspaceId", e.url,
            e.secret_sealed as "secretSealed", c.message_id as "messageId", c.payload, c.attempts,
            (extract(epoch from c.created_at) * 1000)::float8 as "createdAtMs"
       from claimed c join webhook_endpoints e on e.id = c.endpoint_id`,
  );
}

export interface AttemptResult {
  responseStatus: number | null;
  responseBodyPrefix: string | null;
  durationMs: number;
  error: string | null;
}

/**
 * Successful attempts, recorded together (one statement for a batch): each delivery is done, and the
 * failure streak of its endpoint ends.
 */
export async function recordSuccesses(
  em: EntityManager,
  done: { claimed: ClaimedDelivery; result: AttemptResult }[],
): Promise<void> {
  if (done.length === 0) return;
  await sql(
    em,
    q`with r as (
       select * from unnest(${done.map((d) => d.claimed.id)}::uuid[], ${done.map((d) => d.result.responseStatus)}::int[],
                            ${done.map((d) => d.result.responseBodyPrefix)}::text[],
                            ${done.map((d) => d.result.durationMs)}::int[]) as r(id, status, body, ms)),
     d as (
       update webhook_deliveries w set status = 'succeeded', next_attempt_at = null, response_status = r.status,
              response_body_prefix = r.body, duration_ms = r.ms, error = null
         from r where w.id = r.id and w.status = 'pending' returning w.endpoint_id)
     update webhook_endpoints set failing_since = null
      where id in (select endpoint_id from d) and failing_since is not null`,
  );
}

/**
 * A failed attempt: the delivery is retried at `retryAt`, or given up (`failed`, `retryAt` null) when that
 * is past the give-up window. The endpoint's failure streak starts now if it had none. The answer says
 * whether the endpoint has failed too long, and the caller then disables it: its streak has lasted
 * `disableAfterMs`, or this delivery was given up with no delivery of the endpoint succeeding since it was
 * queued.
 */
export async function recordFailure(
  em: EntityManager,
  claimed: ClaimedDelivery,
  result: AttemptResult,
  retryAt: Date | null,
  disableAfterMs: number,
): Promise<{ failingTooLong: boolean }> {
  const row = await sqlOne<{ failingTooLong: boolean }>(
    em,
    q`with d as (
       update webhook_deliveries
          set status = case when ${retryAt}::timestamptz is null then 'failed' else 'pending' end,
              next_attempt_at = ${retryAt}::timestamptz, response_status = ${result.responseStatus},
              response_body_prefix = ${result.responseBodyPrefix}, duration_ms = ${result.durationMs},
              error = ${result.error}
        where id = ${claimed.id} and status = 'pending' returning endpoint_id, status, created_at),
     e as (
       update webhook_endpoints set failing_since = coalesce(failing_since, now())
        where id in (select endpoint_id from d) returning failing_since)
     select coalesce((select e.failing_since <= now() - (${disableAfterMs} * interval '1 millisecond') from e), false)
            or coalesce((select d.status = 'failed' and not exists (
                           select 1 from webhook_deliveries s
                            where s.endpoint_id = d.endpoint_id and s.status = 'succeeded'
                              and s.last_attempt_at >= d.created_at) from d), false) as "failingTooLong"`,
  );
  return row ?? { failingTooLong: false };
}

/**
 * Disables an endpoint that has failed too long, gives up its pending deliveries, and says so on the change
 * log (`webhook updated`), all in the caller's transaction. False when it was disabled already.
 */
export async function disableEndpoint(
  em: EntityManager,
  endpointId: string,
  reason: string,
): Promise<boolean> {
  const row = await sqlOne(
    em,
    q`update webhook_endpoints set enabled = false, disabled_reason = ${reason}
       where id = ${endpointId} and enabled returning id`,
  );
  if (!row) return false;
  await sql(
    em,
    q`update webhook_deliveries set status = 'failed', next_attempt_at = null,
            error = coalesce(error, 'the endpoint was disabled')
      where endpoint_id = ${endpointId} and status = 'pending'`,
  );
  return true;
}

/** The workspace of an endpoint, for the change event that announces it. */
export async function workspaceOfEndpoint(
  em: EntityManager,
  endpointId: string,
): Promise<string | undefined> {
  return (
    await sqlOne<{ w: string }>(
      em,
      q`select workspace_id as w from webhook_endpoints where id = ${endpointId}`,
    )
  )?.w;
}

/** Forgets finished deliveries after a week. */
export async function pruneDeliveries(em: EntityManager): Promise<number> {
  const row = await sqlOne<{ n: number }>(
    em,
    q`with d as (delete from webhook_deliveries where status <> 'pending' and created_at < now() - interval '7 days'
                 returning 1)
      select count(*)::int as n from d`,
  );
  return row?.n ?? 0;
}
