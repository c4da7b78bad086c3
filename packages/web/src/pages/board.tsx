import { useVirtualizer } from "@tanstack/react-virtual";
import type { Schemas } from "@tracker/sdk";
import {
  type DragEvent,
  type KeyboardEvent,
  lazy,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { type Issue, type Team, useApp } from "../app-context.js";
import { LoadMore } from "../components/load-more.js";
import {
  Avatar,
  ErrorNote,
  LabelDot,
  PriorityIcon,
  priorityLabel,
  StateIcon,
} from "../components/widgets.js";
import { countOf, useIssueCounts } from "../issue-counts.js";
import { previewChange, updateIssue } from "../issue-edit.js";
import { columnList, type IssuePages, issuesFetcher, loadMoreIssues } from "../issue-lists.js";
import { Link, useLocation, useTitle } from "../router.js";
import { clearSelection, selectingClick, useSelected, useSelection } from "../selection.js";
import { describeError } from "../session.js";
import { useData } from "../store.js";
import { displayFromSearch, withDisplay } from "./display.js";
import { DisplayMenu } from "./display-menu.js";
import { FilterBar } from "./filter-bar.js";
import { type IssueQuery, issuesQuery, searchFromQuery } from "./filters.js";
import { prefetchIssue } from "./issue.js";
import { COUNT_GROUPING, groupTotal, IssueList } from "./issue-list.js";

// The bar for many issues at once loads when something is first selected.
const BulkBar = lazy(() => import("../components/bulk-bar.js"));

/** My issues' tabs, each the list's computed filter (contract, `listIssues` `special`). */
export const MY_ISSUES = {
  assigned: { label: "Assigned", special: "mine" },
  created: { label: "Created", special: "created_by_me" },
  subscribed: { label: "Subscribed", special: "subscribed" },
} as const;
export type MyIssuesTab = keyof typeof MY_ISSUES;

/**
 * A team's issues as a board (columns by workflow state) or a list, with the API's filters in the URL; or,
 * with `mine`, one tab of My issues: every team's issues assigned to, created by or followed by the person.
 */
export function BoardPage({
  teamKey,
  display,
  mine,
}: {
  teamKey: string | undefined;
  display: "board" | "list";
  mine?: MyIssuesTab;
}) {
  const { tracker, teams, ws } = useApp();
  const { path, search } = useLocation();
  const team = teams.find((t) => t.key.toLowerCase() === teamKey?.toLowerCase());
  const listed = issuesQuery(teamKey, search);
  const { filters } = listed;
  const { key, query } = mine
    ? {
        key: `my:${mine}:${listed.key}`,
        query: { ...listed.query, special: [...(listed.query.special ?? []), MY_ISSUES[mine].special] },
      }
    : listed;
  const options = displayFromSearch(search);
  const showBoard = display === "board" && team;
  // The list reads one list; a board reads one per column (below).
  const read = useData<IssuePages>(showBoard ? null : key, issuesFetcher(tracker, key, query));
  // While a search typed further loads, the rows of the text before it (on this page) stay shown.
  const lastShown = useRef<{ path: string; data: IssuePages } | undefined>(undefined);
  if (read.data) lastShown.current = { path, data: read.data };
  else if (!read.loading || showBoard || lastShown.current?.path !== path) lastShown.current = undefined;
  const issues = { ...read, data: read.data ?? lastShown.current?.data };
  // The list's true total and each group's, counted by the server with the same filters.
  const counts = useIssueCounts(tracker, showBoard ? null : key, query, COUNT_GROUPING[options.grouping]);
  const scroller = useRef<HTMLDivElement>(null);
  const name = mine ? "My issues" : team ? team.name : teamKey ? teamKey : "All issues";
  useTitle(
    mine ? `My issues · ${MY_ISSUES[mine].label}` : `${name} · ${display === "board" ? "Board" : "List"}`,
  );

  const selection = useSelection();
  // A selection belongs to the page it was made on.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path clears it
  useEffect(() => clearSelection, [path]);

  const base = teamKey ? `/${ws}/team/${teamKey}` : `/${ws}/issues`;
  const filterSearch = withDisplay(searchFromQuery(filters), options);
  return (
    <div className="page board-page">
      <div className="page-head">
        <h1>{name}</h1>
        {mine && (
          <nav className="tabs" aria-label="My issues">
            {(Object.keys(MY_ISSUES) as MyIssuesTab[]).map((tab) => (
              <Link
                key={tab}
                className="tab"
                to={`/${ws}/my/${tab}${filterSearch}`}
                aria-current={tab === mine ? "page" : undefined}
              >
                {MY_ISSUES[tab].label}
              </Link>
            ))}
          </nav>
        )}
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
        <span className="spacer-flex" />
        <DisplayMenu filters={filters} options={options} display={display} teamKey={teamKey} />
      </div>
      <FilterBar filters={filters} teamKey={teamKey} listKey={key} />
      {showBoard ? (
        <Board team={team} listKey={key} query={query} />
      ) : (
        <>
          <ErrorNote error={issues.error} />
          <div className="list-scroll" ref={scroller}>
            {issues.data && (
              <IssueList
                issues={issues.data.items}
                grouping={options.grouping}
                shown={options.shown}
                complete={issues.data.nextOffset === null}
                counts={counts.data}
                scrollRef={scroller}
              />
            )}
            {issues.data && <LoadMore listKey={key} pages={issues.data} total={counts.data?.counts.total} />}
            {!issues.data && issues.loading && <p className="muted">Loading…</p>}
          </div>
        </>
      )}
      {selection.size > 0 && (
        <Suspense fallback={null}>
          <BulkBar />
        </Suspense>
      )}
    </div>
  );
}

function Board({ team, listKey, query }: { team: Team; listKey: string; query: IssueQuery }) {
  const { tracker, notify } = useApp();
  // Label colours for the cards' dots; the board does not wait for them.
  const labels = useData("labels", () => tracker.labels.list());
  const colors = useMemo(() => new Map(labels.data?.map((l) => [l.name, l.color])), [labels.data]);
  const [over, setOver] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const states = team.states;
  // Every column's true size, in one count by state with the board's filters (each column lists its own
  // state, so a `state` filter is the columns' business, not the count's).
  const { state: _state, ...countQuery } = query;
  // Its own cache key: the list view of the same filters counts with `state` kept.
  const counts = useIssueCounts(tracker, `${listKey}#columns`, countQuery, "state");

  /** Moves a card: shown at once, rolled back (with a message) when the server refuses or is away. */
  const moveTo = useCallback(
    (issue: Issue, state: Schemas["StateRef"]) => {
      if (issue.state.id === state.id) return;
      const change = { state: state.name };
      updateIssue(tracker, issue, change, (i) => ({
        ...previewChange(i, change),
        // Where the board's default order (recently updated first) will put it: the top.
        updatedAt: new Date().toISOString(),
      })).catch((error) => {
        notify(`${issue.identifier} stays in ${issue.state.name}: ${describeError(error)}`, "error");
        setAnnouncement(`${issue.identifier} stays in ${issue.state.name}`);
      });
    },
    [tracker, notify],
  );

  const drop = (event: DragEvent, state: Schemas["StateRef"]) => {
    event.preventDefault();
    setOver(null);
    const raw = event.dataTransfer.getData("application/x-tracker-issue");
    if (!raw) return;
    moveTo(JSON.parse(raw) as Issue, state);
  };

  const latest = useRef({ states, moveTo });
  latest.current = { states, moveTo };
  // Stable, so a card re-renders only when its issue changes.
  const onCardKey = useCallback((event: KeyboardEvent, issue: Issue) => {
    const { states, moveTo } = latest.current;
    if (!event.shiftKey || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    event.preventDefault();
    const at = states.findIndex((s) => s.id === issue.state.id);
    const next = states[at + (event.key === "ArrowRight" ? 1 : -1)];
    if (!next) return;
    setFocusId(issue.id);
    setAnnouncement(`${issue.identifier} moved to ${next.name}`);
    moveTo(issue, next);
  }, []);

  return (
    <>
      <div className="board">
        {states.map((state) => {
          const list = columnList(listKey, query, state);
          if (!list) return null;
          return (
            <Column
              key={state.id}
              state={state}
              listKey={list.key}
              query={list.query}
              total={countOf(counts.data, state.id)}
              colors={colors}
              over={over === state.id}
              focusId={focusId}
              onCardKey={onCardKey}
              onCardBlur={(issue) => setFocusId((f) => (f === issue.id ? null : f))}
              onDragOver={(e) => {
                e.preventDefault();
                e.dataTransfer.dropEffect = "move";
                setOver(state.id);
              }}
              onDragLeave={() => setOver((o) => (o === state.id ? null : o))}
              onDrop={(e) => drop(e, state)}
            />
          );
        })}
      </div>
      <p className="sr-only" aria-live="assertive">
        {announcement}
      </p>
    </>
  );
}

/** A card's height before it is measured. */
const CARD_ESTIMATE = 78;

function Column({
  state,
  listKey,
  query,
  total: serverTotal,
  colors,
  over,
  focusId,
  onCardKey,
  onCardBlur,
  onDragOver,
  onDragLeave,
  onDrop,
}: {
  state: Schemas["StateRef"];
  listKey: string;
  query: IssueQuery;
  /** The server's count of the column's issues (undefined until it answers). */
  total: number | undefined;
  colors: Map<string, string>;
  over: boolean;
  focusId: string | null;
  onCardKey(event: KeyboardEvent, issue: Issue): void;
  onCardBlur(issue: Issue): void;
  onDragOver(event: DragEvent): void;
  onDragLeave(): void;
  onDrop(event: DragEvent): void;
}) {
  const { tracker, ws, notify } = useApp();
  const pages = useData<IssuePages>(listKey, issuesFetcher(tracker, listKey, query));
  const items = pages.data?.items ?? [];
  const hasMore = pages.data ? pages.data.nextOffset !== null : false;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => CARD_ESTIMATE,
    overscan: 6,
    gap: 6,
    getItemKey: (index) => items[index]!.id,
  });
  const rendered = virtualizer.getVirtualItems();

  // The next page loads as the column's end comes into view.
  const [loadingMore, setLoadingMore] = useState(false);
  const more = useCallback(async () => {
    if (loadingMore) return;
    setLoadingMore(true);
    try {
      await loadMoreIssues(tracker, listKey);
    } catch (error) {
      notify(`More issues could not be loaded: ${describeError(error)}`, "error");
    } finally {
      setLoadingMore(false);
    }
  }, [tracker, listKey, notify, loadingMore]);
  const last = rendered.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasMore && !loadingMore && last >= items.length - 8) void more();
  }, [hasMore, loadingMore, last, items.length, more]);

  // A card moved here by keyboard keeps the focus: scrolled into view, then focused.
  const focusIndex = focusId ? items.findIndex((i) => i.id === focusId) : -1;
  useEffect(() => {
    if (focusIndex < 0) return;
    virtualizer.scrollToIndex(focusIndex, { align: "auto" });
    requestAnimationFrame(() =>
      scroller.current?.querySelector<HTMLElement>(`[data-issue-id="${focusId}"]`)?.focus(),
    );
  }, [focusIndex, focusId, virtualizer]);

  const onIntent = useCallback((issue: Issue) => prefetchIssue(tracker, issue.identifier), [tracker]);
  const total = groupTotal(items.length, !hasMore, serverTotal);
  return (
    <section
      className={`column${over ? " drop-target" : ""}`}
      aria-label={state.name}
      data-state={state.name}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <h2>
        <StateIcon type={state.type} /> {state.name}{" "}
        <span className="column-count" title={total.exact ? undefined : "More to load"}>
          {pages.data || serverTotal !== undefined ? `${total.count}${total.exact ? "" : "+"}` : ""}
        </span>
      </h2>
      <div className="column-scroll" ref={scroller}>
        <ErrorNote error={pages.error} />
        <ul style={{ height: virtualizer.getTotalSize() }}>
          {rendered.map((row) => {
            const issue = items[row.index]!;
            return (
              <li
                key={row.key}
                data-index={row.index}
                ref={virtualizer.measureElement}
                style={{ transform: `translateY(${row.start}px)` }}
              >
                <Card
                  issue={issue}
                  ws={ws}
                  stateName={state.name}
                  colors={colors}
                  onKey={onCardKey}
                  onBlur={onCardBlur}
                  onIntent={onIntent}
                />
              </li>
            );
          })}
        </ul>
        {pages.data && (
          <p className="column-foot muted" aria-live="polite">
            {hasMore ? (
              <>
                {items.length} of {total.exact ? total.count : "more"} loaded{" "}
                <button type="button" onClick={more} aria-busy={loadingMore} className="link-button">
                  {loadingMore ? "Loading…" : "Load more"}
                </button>
              </>
            ) : items.length === 0 ? (
              "No issues"
            ) : (
              `All ${items.length} loaded`
            )}
          </p>
        )}
        {!pages.data && pages.loading && <p className="muted column-foot">Loading…</p>}
      </div>
    </section>
  );
}

const Card = memo(function Card({
  issue,
  ws,
  stateName,
  colors,
  onKey,
  onBlur,
  onIntent,
}: {
  issue: Issue;
  ws: string;
  stateName: string;
  colors: Map<string, string>;
  onKey(event: KeyboardEvent, issue: Issue): void;
  onBlur(issue: Issue): void;
  onIntent(issue: Issue): void;
}) {
  const selected = useSelected(issue.id);
  return (
    <Link
      to={`/${ws}/issue/${issue.identifier}`}
      className={selected ? "card card-selected" : "card"}
      onClick={(e) => selectingClick(e, issue.id)}
      data-nav-item
      data-issue-id={issue.id}
      draggable
      onDragStart={(e) => {
        e.dataTransfer.setData("application/x-tracker-issue", JSON.stringify(issue));
        e.dataTransfer.effectAllowed = "move";
      }}
      onKeyDown={(e) => onKey(e, issue)}
      onBlur={() => onBlur(issue)}
      onPointerEnter={() => onIntent(issue)}
      onFocus={() => onIntent(issue)}
    >
      {/* The card's name is its text (what is seen is what a screen reader says), then its column. */}
      <span className="card-top">
        <span className="identifier">{issue.identifier}</span>
        {issue.assignee && <Avatar name={issue.assignee.name} />}
      </span>{" "}
      <span className="title">
        {issue.title}
        <span className="sr-only">
          , {stateName}
          {selected ? ", selected" : ""}
        </span>
      </span>
      <span className="meta">
        {issue.priority > 0 && (
          <span className="badge" title={priorityLabel(issue.priority)}>
            <PriorityIcon priority={issue.priority} />
            <span className="sr-only">{priorityLabel(issue.priority)}</span>
          </span>
        )}
        {issue.labels.map((l) => (
          <span key={l} className="badge label">
            <LabelDot color={colors.get(l)} />
            {l}
          </span>
        ))}
        {issue.dueDate && <span className="badge">Due {issue.dueDate}</span>}
      </span>
    </Link>
  );
});
