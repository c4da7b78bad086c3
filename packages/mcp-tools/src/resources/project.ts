import { completeProjects } from "../completions.js";
import { projectDetailOf, projectDetailText } from "../tools/get-project.js";
import type { ResourceDefinition } from "./resource.js";

export const projectResource: ResourceDefinition = {
  name: "project",
  title: "Project",
  description:
    "A project with its progress, health, members, latest status updates and open issues, e.g. tracker://projects/Launch.",
  template: "tracker://projects/{name}",
  async list(deps, read) {
    const page = await deps.tracker.projects.list({ sort: "-updated", limit: 50 }, read);
    return page.items.map((p) => ({ uri: `tracker://projects/${encodeURIComponent(p.name)}`, name: p.name }));
  },
  complete: { name: (deps, typed) => completeProjects(deps, typed) },
  async read(deps, { name = "" }, read) {
    return projectDetailText(await projectDetailOf(deps.tracker, name, read));
  },
};
