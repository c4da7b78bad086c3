import { Migration } from "@mikro-orm/migrations";
import { OPEN_STATE_TYPES_SQL } from "../../rules/state-types.js";
import {
  ISSUE_BLOCKERS_ON_RELATION,
  ISSUE_BLOCKERS_ON_STATE,
  ISSUE_RELATIONS_BLOCKERS_TRIGGER,
  ISSUES_BLOCKERS_DELETE_TRIGGER,
  ISSUES_BLOCKERS_STATE_TRIGGER,
} from "../functions/issue-blockers.js";

const OPEN = OPEN_STATE_TYPES_SQL;

/**
 * `blocked` (an open issue blocks it) and `blocking` (it blocks an open issue) as counters on the issue,
 * kept exact by the database whatever writes relations or states, so the specials are an index scan instead
 * of a relations probe per candidate issue. A relation counts while its other end is open:
 * - a `blocks` relation inserted or deleted adjusts both ends, by the state of the other end;
 * - an issue whose state type crosses between open and not open adjusts the issues on the other end of
 *   its `blocks` relations;
 * - a deleted open issue takes itself out of its partners' counts, reading its relations before the foreign
 *   key cascades them away (after-triggers fire in name order, and "A_..." sorts before the cascade's
 *   "RI_ConstraintTrigger_..."); the cascaded relations' trigger then finds the deleted end gone and changes
 *   nothing. A partner deleted by the same statement is already gone, so nothing is written to it.
 */
export class Migration20261121080229_issue_blockers extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table "issues" add column "open_blockers" int not null default 0, add column "open_blocking" int not null default 0',
    );
    this.addSql(ISSUE_BLOCKERS_ON_RELATION);
    this.addSql(ISSUE_RELATIONS_BLOCKERS_TRIGGER);
    this.addSql(ISSUE_BLOCKERS_ON_STATE);
    this.addSql(ISSUES_BLOCKERS_STATE_TRIGGER);
    this.addSql(ISSUES_BLOCKERS_DELETE_TRIGGER);
    this.addSql(`
      update issues i set open_blockers = s.n
        from (select r.related_issue_id as id, count(*)::int as n
                from issue_relations r join issues b on b.id = r.issue_id
               where r.type = 'blocks' and b.state_type in ${OPEN}
               group by r.related_issue_id) s
       where i.id = s.id`);
    this.addSql(`
      update issues i set open_blocking = s.n
        from (select r.issue_id as id, count(*)::int as n
                from issue_relations r join issues t on t.id = r.related_issue_id
               where r.type = 'blocks' and t.state_type in ${OPEN}
               group by r.issue_id) s
       where i.id = s.id`);
    this.addSql(
      'create index "issues_blocked_updated_index" on "issues" ("workspace_id", "updated_at") include ("team_id", "number", "id", "due_date", "state_type") where "open_blockers" > 0',
    );
    this.addSql(
      'create index "issues_blocking_updated_index" on "issues" ("workspace_id", "updated_at") include ("team_id", "number", "id", "due_date", "state_type") where "open_blocking" > 0',
    );
  }
}
