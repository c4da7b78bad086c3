import type { Schemas } from "@tracker/sdk";
import { useState } from "react";
import { useApp } from "../app-context.js";
import { LoadMore } from "../components/load-more.js";
import { ErrorNote, ProgressBar, StateIcon } from "../components/widgets.js";
import { type CountsEntry, countOf, useIssueCounts } from "../issue-counts.js";
import { type IssuePages, issuesFetcher } from "../issue-lists.js";
import { Link } from "../router.js";
import { describeError } from "../session.js";
import { store, useData } from "../store.js";
import { issuesQuery } from "./filters.js";

/** A team's current cycle: its dates, its issues by state and how much of it is done. */
export function CyclePage({ teamKey }: { teamKey: string }) {
  const { tracker, ws, teams, me } = useApp();
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
      {cycles.data && team?.cyclesEnabled && me?.role !== "guest" && (
        <StartNextCycle teamKey={teamKey} current={current} unfinished={unfinishedOf(counts.data)} />
      )}
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

/** Open issues of the cycle by the server's count: all but completed and canceled. */
function unfinishedOf(entry: CountsEntry | undefined): number | undefined {
  if (!entry) return undefined;
  return entry.counts.total - (countOf(entry, "completed") ?? 0) - (countOf(entry, "canceled") ?? 0);
}

/**
 * Starts the team's next cycle now, as the contract's createCycle does without `startsAt`: the running
 * cycle ends now and, unless unticked, its unfinished issues move into the new one. Says what happened.
 */
function StartNextCycle({
  teamKey,
  current,
  unfinished,
}: {
  teamKey: string;
  current: Schemas["Cycle"] | undefined;
  unfinished: number | undefined;
}) {
  const { tracker } = useApp();
  const [rollover, setRollover] = useState(true);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ text: string; error?: boolean }>();
  const name = current ? (current.name ?? `cycle ${current.number}`) : undefined;
  const start = async () => {
    setBusy(true);
    setSaid(undefined);
    try {
      const { cycle, rolledOver, previous, endedPrevious } = await tracker.cycles.create({
        team: teamKey,
        rollover,
      });
      const moved = rolledOver === 1 ? "1 unfinished issue" : `${rolledOver} unfinished issues`;
      const parts = [
        endedPrevious && previous ? `Ended cycle ${previous.number}` : undefined,
        `${endedPrevious ? "started" : "Started"} cycle ${cycle.number}`,
        previous
          ? rollover
            ? `${moved} moved`
            : `cycle ${previous.number} keeps its unfinished issues`
          : undefined,
      ].filter(Boolean);
      setSaid({ text: `${parts.join(", ")}.` });
      store.invalidate([`cycles:${teamKey}`, "issues:", "counts:"]);
    } catch (err) {
      setSaid({ text: describeError(err), error: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="next-cycle" className="next-cycle">
      <h2 id="next-cycle">Start the next cycle</h2>
      <p className="muted">
        {name ? `Starts today and ends ${name} now.` : "Starts today, for the team's cycle length."}
      </p>
      {current && (
        <label>
          <input type="checkbox" checked={rollover} onChange={(e) => setRollover(e.target.checked)} /> Move
          the {unfinished ?? ""} unfinished issues into it
        </label>
      )}{" "}
      <button type="button" disabled={busy} onClick={start}>
        Start next cycle
      </button>
      {said && (
        <p role={said.error ? "alert" : "status"} className={said.error ? "error" : undefined}>
          {said.text}
        </p>
      )}
    </section>
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
