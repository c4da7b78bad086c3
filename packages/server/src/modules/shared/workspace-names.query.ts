import type { EntityManager } from "@mikro-orm/postgresql";
import { sqlOne } from "../../db/sql.js";
import { q } from "../../db/sql-fragment.js";
import type { WorkspaceNames } from "./workspace-names.js";

/**
 * A workspace's names (workspace-names.ts) and their `names_version`, read in one statement, so in one
 * snapshot: the version is exactly the one these names are at.
 */
export function readWorkspaceNames(em: EntityManager, workspaceId: string) {
  return sqlOne<{ version: string; names: Omit<WorkspaceNames, "version"> }>(
    em,
    q`select w.names_version::text as version, json_build_object(
       'teams', coalesce((select json_object_agg(t.id, json_build_array(t.key, t.name))
                            from teams t where t.workspace_id = w.id), '{}'),
       'states', coalesce((select json_object_agg(s.id, json_build_array(s.name, s.type))
                             from workflow_states s join teams t on t.id = s.team_id
                            where t.workspace_id = w.id), '{}'),
       'users', coalesce((select json_object_agg(u.id, json_build_array(u.name, u.email))
                            from memberships m join users u on u.id = m.user_id
                           where m.workspace_id = w.id), '{}'),
       'projects', coalesce((select json_object_agg(p.id, p.name) from projects p
                              where p.workspace_id = w.id), '{}'),
       'cycles', coalesce((select json_object_agg(c.id, c.number)
                             from cycles c join teams t on t.id = c.team_id
                            where t.workspace_id = w.id), '{}'),
       'labels', coalesce((select json_object_agg(l.id, json_build_array(l.name, l.position))
                             from (select id, name, row_number() over (order by lower(name), name) as position
                                     from labels where workspace_id = w.id) l), '{}')) as names
       from workspaces w
      where w.id = ${workspaceId}`,
    { prepare: true },
  );
}
