import { useApp } from "../app-context.js";
import { ErrorNote, HealthBadge, ProgressBar } from "../components/widgets.js";
import { Link } from "../router.js";
import { useData } from "../store.js";

/** Projects with their progress (done over counted issues) and health. */
export function ProjectsPage() {
  const { tracker, ws } = useApp();
  const projects = useData("projects:all", () => tracker.projects.list({ limit: 200 }));
  return (
    <div className="page">
      <h1>Projects</h1>
      <ErrorNote error={projects.error} />
      {projects.data && projects.data.items.length === 0 && <p className="empty">No projects yet.</p>}
      {projects.data && projects.data.items.length > 0 && (
        <table className="issues">
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Status</th>
              <th scope="col">Health</th>
              <th scope="col">Progress</th>
              <th scope="col">Lead</th>
              <th scope="col">Target</th>
              <th scope="col">Teams</th>
            </tr>
          </thead>
          <tbody>
            {projects.data.items.map((p) => (
              <tr key={p.id}>
                <td>
                  <Link
                    data-nav-item
                    to={`/${ws}/issues?project=${encodeURIComponent(p.name)}`}
                    title="The project's issues"
                  >
                    {p.name}
                  </Link>
                </td>
                <td>{p.status}</td>
                <td>
                  <HealthBadge health={p.health} />
                </td>
                <td>
                  <ProgressBar progress={p.progress} label={`${p.name} progress`} />
                </td>
                <td>{p.lead?.name ?? "—"}</td>
                <td>{p.targetDate ?? "—"}</td>
                <td>{p.teams.map((t) => t.key).join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
