import { CHANGE_CHANNEL } from "../../events/record-change.query.js";
import { memberSeesTeamSql } from "../../rules/visibility.js";
import { IMPORTING_SQL } from "./import-mode.js";

/**
 * Subscriptions and notifications (`GET /my/notifications`, the contract's "Inbox"), kept by triggers so
 * that every write path is covered in the change's own transaction:
 *
 * - `issues_subscribe`: an issue's creator and assignee follow it (a row already there, such as an
 *   explicit unsubscribe, `subscribed = false`, is kept).
 * - `activity_events_notify`: each activity event recorded (by any write, `modules/activity`) notifies the
 *   people it concerns, once each, with the first reason that holds: `mentioned` (a comment naming
 *   `@<handle>`, the part of their email before `@`), `assigned`, `created`, `subscribed`. Never the
 *   actor; never someone who unsubscribed (unless mentioned); only members who see the issue's team
 *   (rules/visibility.ts, `memberSeesTeamSql`). Each person notified gets a `notification` change on the
 *   live stream (`GET /events`), which only their own streams receive.
 */
export const ISSUES_SUBSCRIBE = `
      create function issues_subscribe() returns trigger language plpgsql as $$
      begin
        insert into issue_subscriptions (issue_id, user_id, workspace_id, subscribed, created_at)
        select new.id, u.id, new.workspace_id, true, now()
          from (select new.creator_id as id union select new.assignee_id) u
         where u.id is not null
        on conflict do nothing;
        return null;
      end $$`;

export const ISSUES_SUBSCRIBE_TRIGGERS = [
  `create trigger issues_subscribe_insert after insert on issues
     for each row execute function issues_subscribe()`,
  `create trigger issues_subscribe_assignee after update of assignee_id on issues
     for each row when (new.assignee_id is distinct from old.assignee_id) execute function issues_subscribe()`,
];

/**
 * The notifying function; with `quietImports`, as migration `import_mode` replaced it: an import's writes
 * (the transaction in import mode, `db/functions/import-mode.ts`) notify nobody (openapi.yaml, `importIssues`).
 */
const activityEventsNotify = (quietImports: boolean) => `
      create ${quietImports ? "or replace " : ""}function activity_events_notify() returns trigger language plpgsql as $$
      begin${quietImports ? `\n        if ${IMPORTING_SQL} then return null; end if;` : ""}
        with ins as (
        insert into notifications (id, workspace_id, user_id, issue_id, activity_id, reason, created_at)
        select gen_random_uuid(), e.workspace_id, r.user_id, e.issue_id, e.id, r.reason, e.created_at
          from new_events e
          join issues i on i.id = e.issue_id
          join teams t on t.id = i.team_id
          cross join lateral (
            select distinct on (x.user_id) x.user_id, x.reason
              from (
                select u.id as user_id, 'mentioned' as reason, 0 as rank
                  from comments c
                  join memberships mm on mm.workspace_id = e.workspace_id
                  join users u on u.id = mm.user_id
                 where e.type = 'comment_added' and c.id = (e.payload->'comment'->>'id')::uuid
                   and c.body ~* ('(^|[^[:alnum:]_.-])@'
                                  || regexp_replace(split_part(u.email, '@', 1), '([^[:alnum:]])', '\\\\\\1', 'g')
                                  || '($|[^[:alnum:]_-])')
                union all select i.assignee_id, 'assigned', 1
                union all select i.creator_id, 'created', 2
                union all select s.user_id, 'subscribed', 3
                  from issue_subscriptions s where s.issue_id = i.id and s.subscribed
              ) x
             where x.user_id is not null
             order by x.user_id, x.rank) r
          join memberships m on m.workspace_id = e.workspace_id and m.user_id = r.user_id
          join users ru on ru.id = r.user_id
         where r.user_id is distinct from e.actor_id
           and (r.reason = 'mentioned' or not exists (
                 select 1 from issue_subscriptions s
                  where s.issue_id = i.id and s.user_id = r.user_id and not s.subscribed))
           and ${memberSeesTeamSql("t", "ru", "m")}
        on conflict do nothing
        returning workspace_id, user_id, issue_id)
        -- The live stream's notification change, one per person and issue, seen only by that person
        -- (rules/visibility.ts, seesChange); the transaction already has its id, as record-change.query.ts needs.
        insert into change_events (workspace_id, entity, action, entity_id, identifier, team_key, team_id, created_at)
        select distinct ins.workspace_id, 'notification', 'created', ins.user_id::text, nt.key || '-' || ni.number,
               nt.key, null::uuid, now()
          from ins join issues ni on ni.id = ins.issue_id join teams nt on nt.id = ni.team_id;
        perform pg_notify('${CHANGE_CHANNEL}', w::text) from (select distinct workspace_id as w from new_events) x;
        return null;
      end $$`;

/** As migration `notifications` created it. */
export const ACTIVITY_EVENTS_NOTIFY = activityEventsNotify(false);
/** The current definition (migration `import_mode`). */
export const ACTIVITY_EVENTS_NOTIFY_QUIET_IMPORTS = activityEventsNotify(true);

export const ACTIVITY_EVENTS_NOTIFY_TRIGGER = `
      create trigger activity_events_notify after insert on activity_events
        referencing new table as new_events
        for each statement execute function activity_events_notify()`;
