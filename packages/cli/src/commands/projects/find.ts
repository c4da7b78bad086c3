import type { Schemas } from "@tracker/sdk";
import type { Deps } from "../../command.js";

/** A project with its progress and health, by name or id, with its description from its page data. */
export async function findProject(
  deps: Deps,
  ref: string,
): Promise<Schemas["Project"] & { description: string | null }> {
  const [project, page] = await Promise.all([
    deps.tracker.projects.get(ref, deps.call),
    deps.tracker.projects.pageData(ref, deps.call),
  ]);
  return { ...project, description: page.project.description };
}
