import { sqlOne } from "../../db/sql.js";
import { q } from "../../db/sql-fragment.js";
import { handle, inWorkspace } from "../../http/handler.js";
import { can } from "../../rules/permissions.js";
import type { MemberRole } from "../workspaces/workspace.entity.js";
import { seedDemoWorkspace } from "./demo-seed.js";

export const devHandlers = [
  handle(
    "reseedDev",
    async (s) => {
      const scope = inWorkspace(s);
      const demo = await sqlOne<{ id: string; role: MemberRole | null }>(
        scope.em,
        q`select w.id, m.role from workspaces w
         left join memberships m on m.workspace_id = w.id and m.user_id = ${scope.caller.userId}
        where w.slug = 'demo'`,
      );
      const seeded = await scope.em.transactional(async (em) => {
        // Reseeding replaces the demo workspace the caller administers; anyone else's stays untouched.
        if (demo?.role && can({ ...scope, workspace: { role: demo.role } }, "dev.reseed"))
          await em.execute("delete from workspaces where id = ?", [demo.id]);
        return seedDemoWorkspace(em, { email: scope.caller.email, name: scope.caller.name });
      });
      return {
        status: 200,
        body: { workspace: seeded.workspace, teamKey: seeded.teamKey, apiKey: seeded.apiKey.token },
      };
    },
    { devOnly: true },
  ),
];
