import { ISSUE_SORTS, ISSUE_SPECIAL_FILTERS, type Schemas, STATE_TYPES } from "@tracker/sdk";
import {
  type DragEvent,
  type KeyboardEvent,
  memo,
  startTransition,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import { type Issue, type Team, useApp } from "../app-context.js";
import { LoadMore } from "../components/load-more.js";
import { ErrorNote, priorityLabel, StateIcon } from "../components/widgets.js";
import { applyIssue, type IssuePages, issuesFetcher } from "../issue-lists.js";
import { Link, navigate, useLocation } from "../router.js";
import { describeError } from "../session.js";
import { store, useData } from "../store.js";
import { type IssueQuery, issuesQuery, searchFromQuery } from "./filters.js";
import { prefetchIssue } from "./issue.js";

/** A team's issues as a board (columns by workflow state) or a list, with the API's filters in the URL. */
export function BoardPage({ teamKey, display }: { teamKey: string | undefined; display: "board" | "list" }) {
  const { tracker, teams, ws, notify } = useApp();
  const { search } = useLocation();
  const team = teams.find((t) => t.key.toLowerCase() === teamKey?.toLowerCase());
  const { key, filters, query } = issuesQuery(teamKey, search);
  const issues = useData<IssuePages>(key, issuesFetcher(tracker, key, query));

  const moveTo = async (issue: Issue, state: Schemas["StateRef"]) => {
    if (issue.state.id === state.id) return;
    // Shown at once; the cache is put back (refetched) if the server refuses.
    store.set(key, (page) => ({
      ...(page as IssuePages),
      items: (page as IssuePages).items.map((i) => (i.id === issue.id ? { ...i, state } : i)),
    }));
    try {
      const saved = await tracker.issues.update(issue.identifier, { state: state.name });
      applyIssue(saved);
      store.invalidate([`page:${saved.identifier}`, `issue:${saved.identifier}`]);
    } catch (error) {
      notify(`${issue.identifier} stays in ${issue.state.name}: ${describeError(error)}`, "error");
      store.invalidate([key]);
    }
  };

  const base = teamKey ? `/${ws}/team/${teamKey}` : `/${ws}/issues`;
  const filterSearch = searchFromQuery(filters);
  return (
    <div className="page">
      <div className="page-head">
        <h1>{team ? team.name : teamKey ? teamKey : "All issues"}</h1>
        {teamKey && (
          <nav className="tabs" aria-label="Display">
            <Link
              className="tab"
              to={`${base}/board${filterSearch}`}
              aria-current={display === "board" ? "page" : undefined}
            >
              Board
            </Link>
            <Link
              className="tab"
              to={`${base}/list${filterSearch}`}
              aria-current={display === "list" ? "page" : undefined}
            >
              List
            </Link>
          </nav>
        )}
        <SaveView filters={filters} teamKey={teamKey} display={display} />
      </div>
      <FilterBar filters={filters} teamKey={teamKey} />
      <ErrorNote error={issues.error} />
      {issues.data &&
        (display === "board" && team ? (
          <Board team={team} issues={issues.data.items} onMove={moveTo} />
        ) : (
          <IssueList issues={issues.data.items} />
        ))}
      {issues.data && <LoadMore listKey={key} pages={issues.data} />}
      {!issues.data && issues.loading && <p className="muted">Loading…</p>}
    </div>
  );
}

function Board({
  team,
  issues,
  onMove,
}: {
  team: Team;
  issues: Issue[];
  onMove(issue: Issue, state: Schemas["StateRef"]): void;
}) {
  const { ws, tracker } = useApp();
  const [over, setOver] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  // What fills the screen is rendered first; the cards below it follow right after, without holding it up.
  const [complete, setComplete] = useState(issues.length <= FIRST_CARDS * 3);
  useEffect(() => {
    if (!complete) startTransition(() => setComplete(true));
  }, [complete]);
  const states = team.states;

  // A card moved by keyboard lands in another column (a new element): keep the focus on it.
  useEffect(() => {
    if (!focusId) return;
    document.querySelector<HTMLElement>(`[data-issue-id="${focusId}"]`)?.focus();
  });

  const drop = (event: DragEvent, state: Schemas["StateRef"]) => {
    event.preventDefault();
    setOver(null);
    const id = event.dataTransfer.getData("application/x-tracker-issue");
    const issue = issues.find((i) => i.id === id);
    if (issue) onMove(issue, state);
  };

  // A card pointed at or focused is likely opened next: its page data is asked for now.
  const onCardIntent = useCallback((issue: Issue) => prefetchIssue(tracker, issue.identifier), [tracker]);
  const onCardBlur = useCallback((issue: Issue) => setFocusId((f) => (f === issue.id ? null : f)), []);
  const latest = useRef({ states, onMove });
  latest.current = { states, onMove };
  // Stable, so a card re-renders only when its issue changes (a board holds up to 200).
  const onCardKey = useCallback((event: KeyboardEvent, issue: Issue) => {
    const { states, onMove } = latest.current;
    if (!event.shiftKey || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    event.preventDefault();
    const at = states.findIndex((s) => s.id === issue.state.id);
    const next = states[at + (event.key === "ArrowRight" ? 1 : -1)];
    if (!next) return;
    setFocusId(issue.id);
    setAnnouncement(`${issue.identifier} moved to ${next.name}`);
    onMove(issue, next);
  }, []);

  return (
    <>
      <p className="hint">
        Drag a card to another column, or focus it (<kbd>j</kbd>/<kbd>k</kbd>) and press <kbd>Shift</kbd>+
        <kbd>←</kbd>/<kbd>→</kbd>.
      </p>
      <div className="board">
        {states.map((state) => {
          const all = issues.filter((i) => i.state.id === state.id);
          const cards = complete ? all : all.slice(0, FIRST_CARDS);
          return (
            <section
              key={state.id}
              className={`column${over === state.id ? " drop-target" : ""}`}
              aria-label={state.name}
              data-state={state.name}
              onDragOver={(e) => {
                e.preventDefault();
                e.dataTransfer.dropEffect = "move";
                setOver(state.id);
              }}
              onDragLeave={() => setOver((o) => (o === state.id ? null : o))}
              onDrop={(e) => drop(e, state)}
            >
              <h2>
                <StateIcon type={state.type} /> {state.name} <span className="count">{all.length}</span>
              </h2>
              <ul>
                {cards.map((issue) => (
                  <Card
                    key={issue.id}
                    issue={issue}
                    ws={ws}
                    stateName={state.name}
                    onKey={onCardKey}
                    onBlur={onCardBlur}
                    onIntent={onCardIntent}
                  />
                ))}
              </ul>
            </section>
          );
        })}
      </div>
      <p className="sr-only" aria-live="assertive">
        {announcement}
      </p>
    </>
  );
}

const Card = memo(function Card({
  issue,
  ws,
  stateName,
  onKey,
  onBlur,
  onIntent,
}: {
  issue: Issue;
  ws: string;
  stateName: string;
  onKey(event: KeyboardEvent, issue: Issue): void;
  onBlur(issue: Issue): void;
  onIntent(issue: Issue): void;
}) {
  return (
    <li>
      <Link
        to={`/${ws}/issue/${issue.identifier}`}
        className="card"
        data-nav-item
        data-issue-id={issue.id}
        draggable
        onDragStart={(e) => {
          e.dataTransfer.setData("application/x-tracker-issue", issue.id);
          e.dataTransfer.effectAllowed = "move";
        }}
        onKeyDown={(e) => onKey(e, issue)}
        onBlur={() => onBlur(issue)}
        onPointerEnter={() => onIntent(issue)}
        onFocus={() => onIntent(issue)}
      >
        {/* The card's name is its text (what is seen is what a screen reader says), then its column. */}
        <span className="identifier">{issue.identifier}</span> <span className="title">{issue.title}</span>
        <span className="sr-only">, {stateName}</span>
        <span className="meta">
          {issue.priority > 0 && <span className="badge">{priorityLabel(issue.priority)}</span>}
          {issue.assignee && <span className="badge">{issue.assignee.name}</span>}
          {issue.labels.map((l) => (
            <span key={l} className="badge label">
              {l}
            </span>
          ))}
        </span>
      </Link>
    </li>
  );
});

/** Cards a column renders before the board's first paint (more than a screen holds). */
const FIRST_CARDS = 10;

/** Rows a list renders before its first paint; the rest follow right after, without holding up the screen. */
const FIRST_ROWS = 30;

export function IssueList({ issues }: { issues: Issue[] }) {
  const { ws } = useApp();
  const [all, setAll] = useState(issues.length <= FIRST_ROWS);
  useEffect(() => {
    if (!all) startTransition(() => setAll(true));
  }, [all]);
  const shown = all ? issues : issues.slice(0, FIRST_ROWS);
  if (issues.length === 0) return <p className="empty">No issues match.</p>;
  return (
    <table className="issues">
      <thead>
        <tr>
          <th scope="col">Issue</th>
          <th scope="col">Title</th>
          <th scope="col">State</th>
          <th scope="col">Priority</th>
          <th scope="col">Assignee</th>
          <th scope="col">Due</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((issue) => (
          <tr key={issue.id}>
            <td>
              <Link to={`/${ws}/issue/${issue.identifier}`} data-nav-item>
                {issue.identifier}
              </Link>
            </td>
            <td>{issue.title}</td>
            <td>
              <StateIcon type={issue.state.type} /> {issue.state.name}
            </td>
            <td>{priorityLabel(issue.priority)}</td>
            <td>{issue.assignee?.name ?? "—"}</td>
            <td>{issue.dueDate ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function FilterBar({ filters, teamKey }: { filters: IssueQuery; teamKey: string | undefined }) {
  const { tracker } = useApp();
  const { path } = useLocation();
  // The choices are fetched when the filters are used (or one is set), not with the board itself.
  const [wanted, setWanted] = useState(
    Boolean(filters.assignee || filters.project || filters.cycle !== undefined || filters.label),
  );
  const users = useData(wanted ? "users" : null, () => tracker.users.list());
  const projects = useData(wanted ? "projects:all" : null, () => tracker.projects.list({ limit: 200 }));
  const labels = useData(wanted ? "labels" : null, () => tracker.labels.list());
  const cycles = useData(wanted && teamKey ? `cycles:${teamKey}` : null, () => tracker.cycles.list(teamKey!));
  const [q, setQ] = useState(filters.q ?? "");

  const apply = (change: Partial<IssueQuery>) => {
    navigate(`${path}${searchFromQuery({ ...filters, ...change })}`, { replace: true });
  };
  const toggle = <T extends string>(values: T[] | undefined, value: T) =>
    values?.includes(value) ? values.filter((v) => v !== value) : [...(values ?? []), value];

  return (
    <form
      className="filters"
      aria-label="Filters"
      onFocus={() => setWanted(true)}
      onPointerEnter={() => setWanted(true)}
      onSubmit={(e) => {
        e.preventDefault();
        apply({ q: q.trim() || undefined });
      }}
    >
      <label>
        Search
        <input type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Text or ENG-12" />
      </label>
      <fieldset>
        <legend>State</legend>
        {STATE_TYPES.map((type) => (
          <label key={type} className="check">
            <input
              type="checkbox"
              checked={filters.stateType?.includes(type) ?? false}
              onChange={() => apply({ stateType: toggle(filters.stateType, type) })}
            />
            {type}
          </label>
        ))}
      </fieldset>
      <label>
        Assignee
        <select
          value={filters.assignee ?? ""}
          onChange={(e) => apply({ assignee: e.target.value || undefined })}
        >
          <option value="">Anyone</option>
          <option value="me">Me</option>
          {users.data?.map((u) => (
            <option key={u.id} value={u.email}>
              {u.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Project
        <select
          value={filters.project ?? ""}
          onChange={(e) => apply({ project: e.target.value || undefined })}
        >
          <option value="">Any</option>
          {projects.data?.items.map((p) => (
            <option key={p.id} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      {teamKey && (
        <label>
          Cycle
          <select
            value={filters.cycle === undefined ? "" : String(filters.cycle)}
            onChange={(e) =>
              apply({
                cycle:
                  e.target.value === ""
                    ? undefined
                    : e.target.value === "current"
                      ? "current"
                      : Number(e.target.value),
              })
            }
          >
            <option value="">Any</option>
            <option value="current">Current</option>
            {cycles.data?.map((c) => (
              <option key={c.id} value={c.number}>
                {c.name ?? `Cycle ${c.number}`}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        Label
        <select
          value={filters.label?.[0] ?? ""}
          onChange={(e) => apply({ label: e.target.value ? [e.target.value] : undefined })}
        >
          <option value="">Any</option>
          {labels.data?.map((l) => (
            <option key={l.id} value={l.name}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Only
        <select
          value=""
          onChange={(e) =>
            e.target.value &&
            apply({
              special: toggle(filters.special, e.target.value as (typeof ISSUE_SPECIAL_FILTERS)[number]),
            })
          }
        >
          <option value="">Add a filter…</option>
          {ISSUE_SPECIAL_FILTERS.filter((s) => !filters.special?.includes(s)).map((s) => (
            <option key={s} value={s}>
              {s.replace(/_/g, " ")}
            </option>
          ))}
        </select>
      </label>
      {filters.special?.map((s) => (
        <button
          key={s}
          type="button"
          className="chip"
          aria-label={`Remove the filter ${s.replace(/_/g, " ")}`}
          onClick={() => apply({ special: toggle(filters.special, s) })}
        >
          {s.replace(/_/g, " ")} <span aria-hidden="true">×</span>
        </button>
      ))}
      <label>
        Sort
        <select
          value={filters.sort ?? ""}
          onChange={(e) => apply({ sort: (e.target.value || undefined) as IssueQuery["sort"] })}
        >
          <option value="">Recently updated</option>
          {ISSUE_SORTS.map((s) => (
            <option key={s} value={s}>
              {s.startsWith("-") ? `${s.slice(1)} ↓` : `${s} ↑`}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}

function SaveView({
  filters,
  teamKey,
  display,
}: {
  filters: IssueQuery;
  teamKey: string | undefined;
  display: "board" | "list";
}) {
  const { tracker, notify } = useApp();
  const save = async () => {
    const name = window.prompt("Name of the view");
    if (!name) return;
    try {
      const { sort, ...rest } = filters;
      await tracker.views.create({
        name,
        kind: "issues",
        team: teamKey ?? null,
        display,
        filters: rest,
        ...(sort ? { sort } : {}),
      });
      store.invalidate(["views"]);
      notify(`Saved the view “${name}”.`);
    } catch (error) {
      notify(describeError(error), "error");
    }
  };
  return (
    <button type="button" onClick={save}>
      Save view
    </button>
  );
}
