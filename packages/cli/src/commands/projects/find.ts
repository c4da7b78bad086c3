import type { Schemas } from "@tracker/sdk";
import type { Deps } from "../../command.js";
import { findListed } from "../../planning.js";

/** A project with its progress and health, by name or id, and its description from its page data. */
export async function findProject(
  deps: Deps,
  ref: string,
): Promise<Schemas["Project"] & { description: string | null }> {
  const { project } = await deps.tracker.projects.pageData(ref, deps.call);
  const listed = deps.tracker.projects.iterate({ limit: 200 }, deps.call);
  return { ...(await findListed(project.id, listed, `project "${ref}"`)), description: project.description };
}
