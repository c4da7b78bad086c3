import { OPEN_STATE_TYPES_SQL } from "../../rules/state-types.js";

/**
 * `issues.open_blockers` (open issues that block it) and `issues.open_blocking` (open issues it blocks),
 * kept exact by the database whatever writes relations or states, so the `blocked` and `blocking` list
 * filters are an index scan instead of a relations probe per candidate issue. A relation counts while its
 * other end is open:
 * - a `blocks` relation inserted or deleted adjusts both ends, by the state of the other end;
 * - an issue whose state type crosses between open and not open adjusts the issues on the other end of
 *   its `blocks` relations;
 * - a deleted open issue takes itself out of its partners' counts, reading its relations before the foreign
 *   key cascades them away (after-triggers fire in name order, and "A_..." sorts before the cascade's
 *   "RI_ConstraintTrigger_..."); the cascaded relations' trigger then finds the deleted end gone and changes
 *   nothing. A partner deleted by the same statement is already gone, so nothing is written to it.
 * Created by migration `issue_blockers`.
 */

/** The open state types (`rules/state-types.ts`), as the partial index `issues_open_updated_index` spells them too. */
const OPEN = OPEN_STATE_TYPES_SQL;

export const ISSUE_BLOCKERS_ON_RELATION = `
      create function issue_blockers_on_relation() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old.type = 'blocks' then
          update issues set open_blockers = open_blockers - 1
           where id = old.related_issue_id
             and exists (select 1 from issues b where b.id = old.issue_id and b.state_type in ${OPEN});
          update issues set open_blocking = open_blocking - 1
           where id = old.issue_id
             and exists (select 1 from issues t where t.id = old.related_issue_id and t.state_type in ${OPEN});
        end if;
        if tg_op <> 'DELETE' and new.type = 'blocks' then
          update issues set open_blockers = open_blockers + 1
           where id = new.related_issue_id
             and exists (select 1 from issues b where b.id = new.issue_id and b.state_type in ${OPEN});
          update issues set open_blocking = open_blocking + 1
           where id = new.issue_id
             and exists (select 1 from issues t where t.id = new.related_issue_id and t.state_type in ${OPEN});
        end if;
        return null;
      end $$`;

export const ISSUE_RELATIONS_BLOCKERS_TRIGGER = `
      create trigger issue_relations_blockers after insert or update or delete on issue_relations
        for each row execute function issue_blockers_on_relation()`;

export const ISSUE_BLOCKERS_ON_STATE = `
      create function issue_blockers_on_state() returns trigger language plpgsql as $$
      declare
        subject uuid;
        delta int;
      begin
        if tg_op = 'DELETE' then
          subject := old.id;
          delta := -1;
        else
          subject := new.id;
          delta := case when new.state_type in ${OPEN} then 1 else -1 end;
        end if;
        update issues t set open_blockers = t.open_blockers + delta
          from issue_relations r
         where r.issue_id = subject and r.type = 'blocks' and t.id = r.related_issue_id;
        update issues b set open_blocking = b.open_blocking + delta
          from issue_relations r
         where r.related_issue_id = subject and r.type = 'blocks' and b.id = r.issue_id;
        return null;
      end $$`;

export const ISSUES_BLOCKERS_STATE_TRIGGER = `
      create trigger issues_blockers_state after update of state_type on issues
        for each row when ((old.state_type in ${OPEN}) is distinct from (new.state_type in ${OPEN}))
        execute function issue_blockers_on_state()`;

export const ISSUES_BLOCKERS_DELETE_TRIGGER = `
      create trigger "A_issues_blockers_delete" after delete on issues
        for each row when (old.state_type in ${OPEN})
        execute function issue_blockers_on_state()`;
