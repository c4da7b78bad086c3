import type { Schemas } from "@tracker/sdk";
import { CommandError, type Deps } from "../../command.js";

/**
 * A project with its progress and health, by name or id. The contract has no read of one project, so its
 * page data gives the id and the list gives the rest.
 */
export async function findProject(
  deps: Deps,
  ref: string,
): Promise<Schemas["Project"] & { description: string | null }> {
  const { project } = await deps.tracker.projects.pageData(ref, deps.call);
  for await (const p of deps.tracker.projects.iterate({ limit: 200 }, deps.call)) {
    if (p.id === project.id) return { ...p, description: project.description };
  }
  throw new CommandError(`project "${ref}" is not in the project list you can see`);
}
