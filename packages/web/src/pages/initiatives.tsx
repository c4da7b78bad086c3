import { useApp } from "../app-context.js";
import { ErrorNote, HealthBadge, ProgressBar } from "../components/widgets.js";
import { Link } from "../router.js";
import { useData } from "../store.js";
import { initiativePath, projectPath } from "./project.js";

/** Initiatives with their progress over their projects, and health. */
export function InitiativesPage() {
  const { tracker, ws } = useApp();
  const initiatives = useData("initiatives:all", () => tracker.initiatives.list({ limit: 200 }));
  return (
    <div className="page">
      <h1>Initiatives</h1>
      <ErrorNote error={initiatives.error} />
      {initiatives.data && initiatives.data.items.length === 0 && (
        <p className="empty">No initiatives yet.</p>
      )}
      {initiatives.data?.items.map((i) => (
        <section key={i.id} className="card-block" aria-labelledby={`initiative-${i.id}`}>
          <h2 id={`initiative-${i.id}`}>
            <Link data-nav-item to={initiativePath(ws, i)}>
              {i.name}
            </Link>{" "}
            <HealthBadge health={i.health} /> <span className="muted">{i.status}</span>
          </h2>
          <ProgressBar progress={i.progress} label={`${i.name} progress`} />
          <p className="muted">
            Lead: {i.lead?.name ?? "none"} · Target: {i.targetDate ?? "none"}
          </p>
          <ul className="plain">
            {i.projects.map((p) => (
              <li key={p.id}>
                <Link to={projectPath(ws, p)}>{p.name}</Link> <span className="muted">{p.status}</span>{" "}
                <ProgressBar progress={p.progress} label={`${p.name} progress`} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
