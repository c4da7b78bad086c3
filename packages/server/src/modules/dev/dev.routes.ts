import { handle, inWorkspace } from "../../http/handler.js";
import { can } from "../../rules/permissions.js";
import { deleteWorkspace, demoWorkspace } from "./demo.query.js";
import { seedDemoWorkspace } from "./demo-seed.js";

export const devHandlers = [
  handle(
    "reseedDev",
    async (s) => {
      const scope = inWorkspace(s);
      const demo = await demoWorkspace(scope.em, scope.caller.userId);
      const seeded = await scope.em.transactional(async (em) => {
        // Reseeding replaces the demo workspace the caller administers; anyone else's stays untouched.
        if (demo?.role && can({ ...scope, workspace: { role: demo.role } }, "dev.reseed"))
          await deleteWorkspace(em, demo.id);
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
