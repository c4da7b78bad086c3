import type { Schemas } from "@tracker/sdk";
import { type Issue, useApp } from "../app-context.js";
import { LoadMore } from "../components/load-more.js";
import { ErrorNote, ProgressBar, StateIcon } from "../components/widgets.js";
import { type IssuePages, issuesFetcher } from "../issue-lists.js";
import { Link } from "../router.js";
import { useData } from "../store.js";
import { issuesQuery } from "./filters.js";

/** A team's current cycle: its dates, its issues by state and how much of it is done. */
export function CyclePage({ teamKey }: { teamKey: string }) {
  const { tracker, ws, teams } = useApp();
  const team = teams.find((t) => t.key === teamKey);
  const cycles = useData(`cycles:${teamKey}`, () => tracker.cycles.list(teamKey));
  const current = cycles.data?.find((c) => c.isActive);
  const { key, query } = issuesQuery(teamKey, new URLSearchParams({ cycle: "current" }));
  const issues = useData<IssuePages>(current ? key : null, issuesFetcher(tracker, key, query));
  const items = issues.data?.items ?? [];
  const progress = cycleProgress(items);

  return (
    <div className="page">
      <h1>{team?.name ?? teamKey}: current cycle</h1>
      <ErrorNote error={cycles.error ?? issues.error} />
      {cycles.data && !current && <p className="empty">No cycle is running.</p>}
      {current && (
        <>
          <p>
            <strong>{current.name ?? `Cycle ${current.number}`}</strong>{" "}
            <span className="muted">
              {new Date(current.startsAt).toLocaleDateString()} –{" "}
              {new Date(current.endsAt).toLocaleDateString()}
            </span>
          </p>
          <ProgressBar progress={progress} label="Cycle progress" />
          {issues.data?.nextOffset !== null && issues.data && (
            <p className="muted">Counted over the {items.length} issues loaded so far.</p>
          )}
          <ul className="plain">
            {items.map((i) => (
              <li key={i.id}>
                <StateIcon type={i.state.type} />{" "}
                <Link data-nav-item to={`/${ws}/issue/${i.identifier}`}>
                  {i.identifier}
                </Link>{" "}
                {i.title} <span className="muted">{i.state.name}</span>
              </li>
            ))}
          </ul>
          {issues.data && <LoadMore listKey={key} pages={issues.data} />}
        </>
      )}
    </div>
  );
}

/**
 * A cycle's progress as far as the issues loaded tell it: done over all but canceled. The seam for the
 * server's own cycle progress: when the API gives a cycle's true counts, they replace this computation
 * (and the note that the count covers only what is loaded goes).
 */
export function cycleProgress(items: Issue[]): Schemas["Progress"] {
  const done = items.filter((i) => i.state.type === "completed").length;
  const counted = items.filter((i) => i.state.type !== "canceled").length;
  return {
    done,
    total: counted,
    percent: counted ? Math.round((100 * done) / counted) : 0,
    excludedProjects: 0,
  };
}
