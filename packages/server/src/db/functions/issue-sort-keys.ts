/**
 * `issues.state_position` (the position of the issue's workflow state) and `issues.assignee_sort` (its
 * assignee's name, lowercased), kept by the database whatever writes issues or renames a user, so the list's
 * `state` and `assignee` sorts read an index in order and stop after the page, as the other sorts do,
 * instead of joining and sorting every visible issue (bench/PLANS.md: 54 ms at 100,000 issues).
 * - an issue inserted, or its state or assignee changed, takes the keys from its state and assignee;
 * - a user renamed re-keys the issues assigned to them; a team's states reordered re-key the team's issues
 *   in the states that moved (`renumberStates`, modules/teams/workflow-state.query.ts).
 * Created by migration `issue_sort_keys`.
 */

/**
 * The state sort's first key: the place of a state type (`column`) in the workflow, spelled the same in the
 * list's ORDER BY and in the index, so the index serves the sort.
 */
export const stateTypeRank = (column: string) =>
  `array_position(array['backlog', 'unstarted', 'started', 'completed', 'canceled']::text[], ${column}::text)`;

export const ISSUE_SORT_KEYS = `
      create or replace function issue_sort_keys() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' or new.state_id is distinct from old.state_id then
          new.state_position := (select s.position from workflow_states s where s.id = new.state_id);
        end if;
        if tg_op = 'INSERT' or new.assignee_id is distinct from old.assignee_id then
          new.assignee_sort := (select lower(u.name) from users u where u.id = new.assignee_id);
        end if;
        return new;
      end $$`;

export const ISSUES_SORT_KEYS_TRIGGER = `
      create trigger issues_sort_keys before insert or update of state_id, assignee_id on issues
        for each row execute function issue_sort_keys()`;

export const USER_ASSIGNEE_SORT = `
      create or replace function user_assignee_sort() returns trigger language plpgsql as $$
      begin
        update issues set assignee_sort = lower(new.name) where assignee_id = new.id;
        return null;
      end $$`;

export const USERS_ASSIGNEE_SORT_TRIGGER = `
      create trigger users_assignee_sort after update of name on users
        for each row when (old.name is distinct from new.name) execute function user_assignee_sort()`;
