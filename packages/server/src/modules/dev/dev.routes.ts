import { sqlOne } from "../../db/sql.js";
import { requireAdmin } from "../../http/auth.js";
import { handle, inWorkspace } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { seedDemoWorkspace } from "./demo-seed.js";

export const devHandlers = [
  handle("reseedDev", async (s) => {
    // Outside development mode the endpoint does not exist, as far as callers can tell.
    if (s.config.nodeEnv !== "development") throw new NotFound(`No route for POST /api/v1/dev/reseed.`);
    const scope = inWorkspace(s);
    requireAdmin(scope.workspace, "reseed demo data");
    const demo = await sqlOne<{ id: string; role: string | null }>(
      scope.em,
      `select w.id, m.role from workspaces w
         left join memberships m on m.workspace_id = w.id and m.user_id = ?
        where w.slug = 'demo'`,
      [scope.caller.userId],
    );
    const seeded = await scope.em.transactional(async (em) => {
      // Reseeding replaces the demo workspace the caller administers; anyone else's stays untouched.
      if (demo?.role === "admin") await em.execute("delete from workspaces where id = ?", [demo.id]);
      return seedDemoWorkspace(em, { email: scope.caller.email, name: scope.caller.name });
    });
    return {
      status: 200,
      body: { workspace: seeded.workspace, teamKey: seeded.teamKey, apiKey: seeded.apiKey.token },
    };
  }),
];
