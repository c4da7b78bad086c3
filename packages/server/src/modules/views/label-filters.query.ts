import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import type { Change } from "../../events/record-change.query.js";

/**
 * Saved filters (saved views' and view defaults' `filters`) name labels by NAME in their `label` array, so
 * a label rename, merge or delete must rewrite them, in the caller's transaction. Names match
 * case-insensitively (as the issue list's label filter does); after the rewrite duplicates are dropped
 * (first occurrence kept) and an emptied array removes the `label` key, so a view is never left filtering
 * on nothing.
 */
export async function rewriteLabelFilters(
  em: EntityManager,
  workspaceId: string,
  from: string,
  /** The replacement name; `null` removes the label. */
  to: string | null,
): Promise<Change[]> {
  const changes: Change[] = [];
  for (const [table, entity] of [
    ["saved_views", "view"],
    ["view_defaults", "view_default"],
  ] as const) {
    const rows = await sql<{ id: string }>(
      em,
      q`update ${raw(table)} v
          set filters = (select case when count(*) = 0 then v.filters - 'label'
                                     else jsonb_set(v.filters, '{label}', jsonb_agg(x.name order by x.first)) end
                           from (select min(y.ord) as first, (array_agg(y.name order by y.ord))[1] as name
                                   from (select case when lower(e.value) = lower(${from}) then ${to}::text else e.value end as name,
                                                e.ord
                                           from jsonb_array_elements_text(v.filters -> 'label')
                                                with ordinality as e(value, ord)) y
                                  where y.name is not null
                                  group by lower(y.name)) x),
              updated_at = now()
        where v.workspace_id = ${workspaceId}
          and jsonb_typeof(v.filters -> 'label') = 'array'
          and exists (select 1 from jsonb_array_elements_text(v.filters -> 'label') l(value)
                       where lower(l.value) = lower(${from}))
        returning v.id`,
    );
    for (const r of rows) changes.push({ entity, action: "updated", id: r.id });
  }
  return changes;
}
