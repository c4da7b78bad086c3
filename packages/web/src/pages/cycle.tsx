import type { Schemas } from "@tracker/sdk";
import { useApp } from "../app-context.js";
import { LoadMore } from "../components/load-more.js";
import { ErrorNote, ProgressBar, StateIcon } from "../components/widgets.js";
import { type CountsEntry, countOf, useIssueCounts } from "../issue-counts.js";
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
  // Done and total from the server's count of the whole cycle, not from the pages loaded.
  const counts = useIssueCounts(tracker, current ? key : null, query, "stateType");
  const progress = counts.data && cycleProgress(counts.data);

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
          {progress && <ProgressBar progress={progress} label="Cycle progress" />}
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
          {issues.data && <LoadMore listKey={key} pages={issues.data} total={counts.data?.counts.total} />}
        </>
      )}
    </div>
  );
}

/**
 * A cycle's progress from the server's count of its issues by state type (the contract's `countIssues`):
 * done over all but canceled, as the contract's `Progress` counts a project's.
 */
export function cycleProgress(entry: CountsEntry): Schemas["Progress"] {
  const done = countOf(entry, "completed") ?? 0;
  const counted = entry.counts.total - (countOf(entry, "canceled") ?? 0);
  return {
    done,
    total: counted,
    percent: counted ? Math.floor((100 * done) / counted) : 0,
    excludedProjects: 0,
  };
}
