import type { Schemas } from "@tracker/sdk";
import type { ReactNode } from "react";
import { useApp } from "../app-context.js";
import { LoadMore } from "../components/load-more.js";
import { Markdown } from "../components/markdown.js";
import { StatusUpdates } from "../components/status-updates.js";
import { ErrorNote, HealthBadge, Pending, ProgressBar } from "../components/widgets.js";
import { useIssueCounts } from "../issue-counts.js";
import { type IssuePages, issuesFetcher } from "../issue-lists.js";
import { Link } from "../router.js";
import { store, useData } from "../store.js";
import { issuesQuery, searchFromQuery } from "./filters.js";
import { IssueList } from "./issue-list.js";

type Project = Schemas["Project"];
type Initiative = Schemas["Initiative"];

/**
 * A project or initiative as the lists show it (progress, health, lead): the list already cached gives it
 * at once, and `GET /projects/{id}` (or `/initiatives/{id}`) brings it fresh.
 */
function cachedRow<T extends { id: string }>(listKey: string, id: string): T | undefined {
  return (store.get(listKey)?.data as { items: T[] } | undefined)?.items.find((r) => r.id === id);
}

export function projectPath(ws: string, project: { id: string }): string {
  return `/${ws}/project/${project.id}`;
}

export function initiativePath(ws: string, initiative: { id: string }): string {
  return `/${ws}/initiative/${initiative.id}`;
}

/** A project: description, progress, health, lead and members, its issues, and its status updates. */
export function ProjectPage({ id }: { id: string }) {
  const { tracker, ws } = useApp();
  const page = useData(`project:${id}:page`, () => tracker.projects.pageData(id));
  const fetched = useData(`project:${id}`, () => tracker.projects.get(id));
  const members = useData(`project:${id}:members`, () => tracker.projects.members(id));
  const project = fetched.data ?? cachedRow<Project>("projects:all", id);
  const { key, query, filters } = issuesQuery(undefined, new URLSearchParams({ project: id }));
  const issues = useData<IssuePages>(key, issuesFetcher(tracker, key, query));
  // How many issues the project holds in all, however many pages are loaded.
  const total = useIssueCounts(tracker, key, query, "stateType").data?.counts.total;

  if (!project) {
    return <Pending title="Project" error={fetched.error ?? page.error} />;
  }
  return (
    <div className="page detail-page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to={`/${ws}/projects`}>Projects</Link> ›{" "}
        {project.initiative && (
          <>
            <Link to={initiativePath(ws, project.initiative)}>{project.initiative.name}</Link> ›{" "}
          </>
        )}
        <span>{project.name}</span>
      </nav>
      <h1>{project.name}</h1>
      <ErrorNote error={page.error ?? members.error} />
      <dl className="facts">
        <Fact label="Progress">
          <ProgressBar progress={project.progress} label={`${project.name} progress`} />
        </Fact>
        <Fact label="Health">
          <HealthBadge health={project.health} />
        </Fact>
        <Fact label="Status">{project.status}</Fact>
        <Fact label="Lead">{project.lead?.name ?? "No lead"}</Fact>
        <Fact label="Dates">
          {project.startDate ?? "—"} → {project.targetDate ?? "—"}
        </Fact>
        <Fact label="Teams">{project.teams.map((t) => t.name).join(", ") || "—"}</Fact>
        <Fact label="Members">
          {members.data ? members.data.map((m) => m.name).join(", ") || "None" : "…"}
        </Fact>
      </dl>
      <section aria-label="Description" className="description">
        {page.data?.project.description ? (
          <Markdown text={page.data.project.description} />
        ) : (
          page.data && <p className="muted">No description.</p>
        )}
      </section>
      <section aria-labelledby="project-issues">
        <h2 id="project-issues">
          Issues {total !== undefined && <span className="muted issue-total">{total}</span>}{" "}
          <Link className="small" to={`/${ws}/issues${searchFromQuery(filters)}`}>
            open as a list
          </Link>
        </h2>
        <ErrorNote error={issues.error} />
        {issues.data && <IssueList issues={issues.data.items} />}
        {issues.data && <LoadMore listKey={key} pages={issues.data} total={total} />}
      </section>
      <StatusUpdates subject={{ project: project.id }} health={project.health} noun="project" />
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** An initiative: description, progress over its projects, health, lead, its projects, its status updates. */
export function InitiativePage({ id }: { id: string }) {
  const { tracker, ws } = useApp();
  const page = useData(`initiative:${id}:page`, () => tracker.initiatives.pageData(id));
  const fetched = useData(`initiative:${id}`, () => tracker.initiatives.get(id));
  const projects = useData(`projects:initiative:${id}`, () =>
    tracker.projects.list({ initiative: id, limit: 200 }),
  );
  const initiative = fetched.data ?? cachedRow<Initiative>("initiatives:all", id);

  if (!initiative) {
    return <Pending title="Initiative" error={fetched.error ?? page.error} />;
  }
  const { progress } = initiative;
  return (
    <div className="page detail-page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to={`/${ws}/initiatives`}>Initiatives</Link> › <span>{initiative.name}</span>
      </nav>
      <h1>{initiative.name}</h1>
      <ErrorNote error={page.error ?? projects.error} />
      <dl className="facts">
        <Fact label="Progress">
          <ProgressBar progress={progress} label={`${initiative.name} progress`} />
          {progress.excludedProjects > 0 && (
            <span className="muted small"> ({progress.excludedProjects} paused or canceled not counted)</span>
          )}
        </Fact>
        <Fact label="Health">
          <HealthBadge health={initiative.health} />
        </Fact>
        <Fact label="Status">{initiative.status}</Fact>
        <Fact label="Lead">{initiative.lead?.name ?? "No lead"}</Fact>
        <Fact label="Target">{initiative.targetDate ?? "—"}</Fact>
      </dl>
      <section aria-label="Description" className="description">
        {initiative.description ? (
          <Markdown text={initiative.description} />
        ) : (
          <p className="muted">No description.</p>
        )}
      </section>
      <section aria-labelledby="initiative-projects">
        <h2 id="initiative-projects">Projects</h2>
        {projects.data && projects.data.items.length === 0 && <p className="muted">No projects yet.</p>}
        {projects.data && projects.data.items.length > 0 && <ProjectTable projects={projects.data.items} />}
      </section>
      <StatusUpdates subject={{ initiative: initiative.id }} health={initiative.health} noun="initiative" />
    </div>
  );
}

/** Projects with their progress and health, each opening its page. */
export function ProjectTable({ projects }: { projects: Project[] }) {
  const { ws } = useApp();
  return (
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
        {projects.map((p) => (
          <tr key={p.id}>
            <td>
              <Link data-nav-item to={projectPath(ws, p)}>
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
  );
}
