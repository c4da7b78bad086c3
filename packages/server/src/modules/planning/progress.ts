/**
 * Progress and health as SQL expressions (the contract's `Progress` and `Health` schemas), shared by the project and
 * initiative lists so both compute them the same way, in the database, for a whole page at once.
 */

import { TODAY } from "../../db/sql-time.js";

/** floor(100 x done / total), 0 when total is 0 (integer division floors non-negative integers). */
export function percentSql(done: string, total: string): string {
  return `(case when ${total} = 0 then 0 else (100 * ${done}) / ${total} end)::int`;
}

/**
 * Health from target date versus progress. No target date, or percent at least the share of time
 * elapsed between `start` and `target` (0..100): on_track; within 25 points below it: at_risk; further
 * below, or the target passed (before today) with work open (done < total): off_track. A target on or
 * before the start counts as fully elapsed from the target day on.
 *
 * In integers, without a division: for span = target - start > 0 and elapsed = today - start,
 * `percent >= clamp(100 x elapsed / span, 0, 100)` is `percent x span >= clamp(100 x elapsed, 0, 100 x span)`
 * (and the same with percent + 25 for at_risk). Numeric division over every project of a workspace cost a
 * computed sort a third of its time.
 */
export function healthSql(o: {
  done: string;
  total: string;
  percent: string;
  start: string;
  target: string;
}) {
  const span = `(${o.target} - ${o.start})`;
  const expectedTimesSpan = `least(greatest(100 * (${TODAY} - ${o.start}), 0), 100 * ${span})`;
  return `(case when ${o.target} is null then 'on_track'
                when ${o.target} < ${TODAY} and ${o.done} < ${o.total} then 'off_track'
                when ${o.target} <= ${o.start} then
                  (case when ${TODAY} < ${o.target} or ${o.percent} >= 100 then 'on_track'
                        when ${o.percent} >= 75 then 'at_risk' else 'off_track' end)
                when ${o.percent} * ${span} >= ${expectedTimesSpan} then 'on_track'
                when (${o.percent} + 25) * ${span} >= ${expectedTimesSpan} then 'at_risk'
                else 'off_track' end)`;
}

/** Sort rank of health: off_track first, like the app's board. */
export const HEALTH_RANK = (h: string) =>
  `(case ${h} when 'off_track' then 0 when 'at_risk' then 1 else 2 end)`;

/** An ORDER BY term: missing values last ascending, first descending. */
export function orderTerm(expr: string, descending: boolean): string {
  return descending ? `${expr} desc nulls first` : `${expr} asc nulls last`;
}
