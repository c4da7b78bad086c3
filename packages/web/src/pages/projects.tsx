import { useApp } from "../app-context.js";
import { ErrorNote } from "../components/widgets.js";
import { useData } from "../store.js";
import { ProjectTable } from "./project.js";

/** Projects with their progress (done over counted issues) and health; each opens its page. */
export function ProjectsPage() {
  const { tracker } = useApp();
  const projects = useData("projects:all", () => tracker.projects.list({ limit: 200 }));
  return (
    <div className="page">
      <h1>Projects</h1>
      <ErrorNote error={projects.error} />
      {projects.data && projects.data.items.length === 0 && <p className="empty">No projects yet.</p>}
      {projects.data && projects.data.items.length > 0 && <ProjectTable projects={projects.data.items} />}
    </div>
  );
}
