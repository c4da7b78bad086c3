/**
 * `team_state_counts`: per team and workflow state, how many issues not archived are in it, kept exact by
 * the database whatever writes the issues (creates, batches, updates, moves between teams, archive, deletes,
 * cascades). A board's unfiltered columns read these few rows (`countIssues`, list/counts.query.ts) instead
 * of counting a team's issues, which at 50,000 issues a team takes ~19 ms however they are indexed. Created
 * by migration `team_state_counts`.
 *
 * Inserts are counted once per statement, from its transition table: a batch of 100 issues into one state
 * bumps its row once rather than 100 times (2.0–2.7 → 0.4 ms of a 100-row insert, bench/README.md). Updates
 * and deletes are counted per changed issue (a trigger on chosen columns cannot have a transition table).
 * Either way the (team, state) pairs are taken in key order: two transactions moving issues between the
 * same two states take the counter rows in the same order (a deadlock is still retried:
 * `http/run-handler.ts`).
 */
export const TEAM_STATE_COUNTS_ON_ISSUE = `
      create or replace function team_state_counts_on_issue() returns trigger language plpgsql as $$
      begin
        insert into team_state_counts as c (team_id, state_id, n)
        select d.team_id, d.state_id, sum(d.n)::int
          from (select old.team_id, old.state_id, -1 as n where tg_op <> 'INSERT' and old.archived_at is null
                union all
                select new.team_id, new.state_id, 1 where tg_op <> 'DELETE' and new.archived_at is null) d
         group by d.team_id, d.state_id
        having sum(d.n) <> 0
         order by d.team_id, d.state_id
        on conflict (team_id, state_id) do update set n = c.n + excluded.n;
        return null;
      end $$`;

/** Every issue a statement inserted, counted per (team, state) in one upsert. */
export const TEAM_STATE_COUNTS_ON_INSERTED_ISSUES = `
      create or replace function team_state_counts_on_inserted_issues() returns trigger language plpgsql as $$
      begin
        insert into team_state_counts as c (team_id, state_id, n)
        select i.team_id, i.state_id, count(*)::int
          from inserted_issues i
         where i.archived_at is null
         group by i.team_id, i.state_id
         order by i.team_id, i.state_id
        on conflict (team_id, state_id) do update set n = c.n + excluded.n;
        return null;
      end $$`;

export const ISSUES_TEAM_STATE_COUNTS_INSERT_TRIGGER = `
      create trigger issues_team_state_counts_insert after insert on issues
        referencing new table as inserted_issues
        for each statement execute function team_state_counts_on_inserted_issues()`;

export const ISSUES_TEAM_STATE_COUNTS_UPDATE_TRIGGER = `
      create trigger issues_team_state_counts_update after update of team_id, state_id, archived_at on issues
        for each row when (old.team_id is distinct from new.team_id or old.state_id is distinct from new.state_id
                           or (old.archived_at is null) <> (new.archived_at is null))
        execute function team_state_counts_on_issue()`;

export const ISSUES_TEAM_STATE_COUNTS_DELETE_TRIGGER = `
      create trigger issues_team_state_counts_delete after delete on issues
        for each row when (old.archived_at is null)
        execute function team_state_counts_on_issue()`;
