import type { EntityManager } from "@mikro-orm/postgresql";
import { bootstrapWorkspace } from "./bootstrap.js";

export const DEMO_TEAM = { key: "ENG", name: "Engineering" };

/** The demo workspace a development server starts with: one team with the default workflow. */
export async function seedDemoWorkspace(em: EntityManager, admin: { email: string; name: string }) {
  const result = await bootstrapWorkspace(em, {
    workspaceName: "Demo",
    email: admin.email,
    name: admin.name,
    team: DEMO_TEAM,
  });
  return { ...result, teamKey: DEMO_TEAM.key };
}
