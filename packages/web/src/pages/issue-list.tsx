import { useVirtualizer } from "@tanstack/react-virtual";
import { PRIORITY_NAMES, type Schemas, STATE_TYPES } from "@tracker/sdk";
import { type RefObject, useMemo } from "react";
import { type Issue, useApp } from "../app-context.js";
import { Avatar, LabelDot, PriorityIcon, priorityLabel, StateIcon } from "../components/widgets.js";
import { type CountGrouping, type CountsEntry, countOf } from "../issue-counts.js";
import { Link } from "../router.js";
import { selectingClick, useSelected } from "../selection.js";
import { useData } from "../store.js";
import { type Grouping, PROPERTIES, PROPERTY_NAMES, type Property } from "./display.js";

/** Lists longer than this render only the rows in view (and a few around them). */
const VIRTUAL_FROM = 120;
const ROW_HEIGHT = 37;

type Row =
  | { kind: "group"; key: string; name: string; count: number; exact: boolean }
  | { kind: "issue"; key: string; issue: Issue };

/** Urgent first, then high, medium, low, and "no priority" last, as people read them. */
const PRIORITY_ORDER = [1, 2, 3, 4, 0];

/**
 * The issues of a list in groups (the contract's `ViewGrouping`), each group in the list's own order.
 * Each group's header counts with the server's totals when given (`groupTotal`, `serverGroupCount`).
 */
export function groupIssues(
  issues: Issue[],
  grouping: Grouping,
  teams: Schemas["Team"][],
): { key: string; name: string; issues: Issue[] }[] {
  if (grouping === "none") return [{ key: "all", name: "", issues }];
  const groups = new Map<string, { key: string; name: string; rank: number; issues: Issue[] }>();
  const add = (key: string, name: string, rank: number, issue: Issue) => {
    let group = groups.get(key);
    if (!group) {
      group = { key, name, rank, issues: [] };
      groups.set(key, group);
    }
    group.issues.push(issue);
  };
  for (const issue of issues) {
    if (grouping === "status") {
      const states = teams.find((t) => t.id === issue.team.id)?.states ?? [];
      const position = states.findIndex((s) => s.id === issue.state.id);
      // Teams share state names: one group per name, in the order of the state types.
      add(issue.state.name, issue.state.name, STATE_TYPES.indexOf(issue.state.type) * 1000 + position, issue);
    } else if (grouping === "assignee") {
      add(issue.assignee?.id ?? "", issue.assignee?.name ?? "Unassigned", issue.assignee ? 0 : 1, issue);
    } else if (grouping === "priority") {
      add(
        String(issue.priority),
        priorityLabel(issue.priority),
        PRIORITY_ORDER.indexOf(issue.priority),
        issue,
      );
    } else if (grouping === "project") {
      add(issue.project?.id ?? "", issue.project?.name ?? "No project", issue.project ? 0 : 1, issue);
    } else if (grouping === "label") {
      if (issue.labels.length === 0) add("", "No labels", 1, issue);
      for (const name of issue.labels) add(`label:${name}`, name, 0, issue);
    }
  }
  return [...groups.values()].sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name));
}

/**
 * How many issues a group (or a board column) holds: the server's total for it (the contract's
 * `countIssues`, with the list's filters) when it has answered, else what is loaded (exact once the last
 * page is in).
 */
export function groupTotal(
  loaded: number,
  complete: boolean,
  server?: number,
): { count: number; exact: boolean } {
  if (server !== undefined) return { count: complete ? loaded : Math.max(server, loaded), exact: true };
  return { count: loaded, exact: complete };
}

/** The count (`countIssues`'s `groupBy`) that gives each group of a grouping its total. */
export const COUNT_GROUPING: Record<Grouping, CountGrouping> = {
  none: "state",
  status: "state",
  assignee: "assignee",
  priority: "priority",
  project: "project",
  label: "label",
};

/**
 * A group's total from the server's count by `COUNT_GROUPING[grouping]`: the group's key (as `groupIssues`
 * makes it) turned into the count's key. A status group is a state name, shared by teams: the states of
 * that name summed. Undefined when it cannot be told (the count or the labels not read yet).
 */
export function serverGroupCount(
  grouping: Grouping,
  key: string,
  counts: CountsEntry | undefined,
  teams: Schemas["Team"][],
  labels: Schemas["Label"][] | undefined,
): number | undefined {
  if (!counts || counts.groupBy !== COUNT_GROUPING[grouping]) return undefined;
  switch (grouping) {
    case "none":
      return counts.counts.total;
    case "status":
      return teams
        .flatMap((t) => t.states)
        .filter((s) => s.name === key)
        .reduce((sum, s) => sum + (countOf(counts, s.id) ?? 0), 0);
    case "priority":
      return countOf(counts, Number(key));
    case "label": {
      if (key === "") return countOf(counts, null);
      const id = labels?.find((l) => `label:${l.name}` === key)?.id;
      return id === undefined ? undefined : countOf(counts, id);
    }
    default:
      return countOf(counts, key === "" ? null : key);
  }
}

export function IssueList({
  issues,
  grouping = "none",
  shown = ["state", "priority", "assignee", "labels", "due"],
  complete = true,
  counts,
  scrollRef,
}: {
  issues: Issue[];
  grouping?: Grouping;
  shown?: Property[];
  /** Whether every issue of the list is loaded (group counts are then exact). */
  complete?: boolean;
  /** The server's count of the list's issues by `COUNT_GROUPING[grouping]`: each group's true total. */
  counts?: CountsEntry | undefined;
  /** The element the list scrolls in; given, a long list renders only what is in view. */
  scrollRef?: RefObject<HTMLElement | null>;
}) {
  const { ws, teams, tracker } = useApp();
  const labels = useData(shown.includes("labels") || grouping === "label" ? "labels" : null, () =>
    tracker.labels.list(),
  );
  const colors = useMemo(() => new Map(labels.data?.map((l) => [l.name, l.color])), [labels.data]);
  const rows = useMemo<Row[]>(() => {
    const out: Row[] = [];
    for (const group of groupIssues(issues, grouping, teams)) {
      if (grouping !== "none") {
        const server = serverGroupCount(grouping, group.key, counts, teams, labels.data);
        const total = groupTotal(group.issues.length, complete, server);
        out.push({ kind: "group", key: `g:${group.key}`, name: group.name, ...total });
      }
      for (const issue of group.issues) out.push({ kind: "issue", key: `${group.key}:${issue.id}`, issue });
    }
    return out;
  }, [issues, grouping, teams, complete, counts, labels.data]);
  const virtual = Boolean(scrollRef) && rows.length > VIRTUAL_FROM;
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scrollRef?.current ?? null,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The table header sits above the rows inside the scroller.
    scrollMargin: 0,
  });
  if (issues.length === 0) return <p className="empty">No issues match.</p>;
  const columns = PROPERTIES.filter((p) => shown.includes(p));
  const items = virtual
    ? virtualizer.getVirtualItems()
    : rows.map((_, index) => ({ index, start: 0, end: 0 }));
  const before = virtual ? (items[0]?.start ?? 0) : 0;
  const after = virtual ? virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0) : 0;

  return (
    <table className="issues">
      <colgroup>
        <col className="col-identifier" />
        <col className="col-title" />
        {columns.map((c) => (
          <col key={c} className={`col-${c}`} />
        ))}
      </colgroup>
      <thead>
        <tr>
          <th scope="col" className="col-identifier">
            Issue
          </th>
          <th scope="col" className="col-title">
            Title
          </th>
          {columns.map((c) => (
            <th key={c} scope="col" className={`col-${c}`}>
              {PROPERTY_NAMES[c]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {before > 0 && <tr className="spacer" style={{ height: before }} />}
        {items.map(({ index }) => {
          const row = rows[index]!;
          if (row.kind === "group")
            return (
              <tr key={row.key} className="group-head">
                <th scope="rowgroup" colSpan={2 + columns.length}>
                  {row.name}{" "}
                  <span className="muted group-count" title={row.exact ? undefined : "More to load"}>
                    {row.count}
                    {row.exact ? "" : "+"}
                  </span>
                </th>
              </tr>
            );
          return (
            <IssueRow
              key={row.key}
              issue={row.issue}
              ws={ws}
              columns={columns}
              colors={colors}
              height={virtual ? ROW_HEIGHT : undefined}
            />
          );
        })}
        {after > 0 && <tr className="spacer" style={{ height: after }} />}
      </tbody>
    </table>
  );
}

/** One issue's row; ticked for the bulk bar by `x`, Cmd/Ctrl-click or Shift-click (selection.ts). */
function IssueRow({
  issue,
  ws,
  columns,
  colors,
  height,
}: {
  issue: Issue;
  ws: string;
  columns: Property[];
  colors: Map<string, string>;
  height: number | undefined;
}) {
  const selected = useSelected(issue.id);
  const path = `/${ws}/issue/${issue.identifier}`;
  return (
    <tr className={selected ? "issue-row row-selected" : "issue-row"} style={height ? { height } : undefined}>
      <td className="col-identifier">
        <Link
          to={path}
          data-nav-item
          data-issue-id={issue.id}
          tabIndex={0}
          onClick={(e) => selectingClick(e, issue.id)}
        >
          {issue.identifier}
          {selected && <span className="sr-only">, selected</span>}
        </Link>
      </td>
      <td className="col-title">
        <Link to={path} className="row-title" tabIndex={-1} onClick={(e) => selectingClick(e, issue.id)}>
          {issue.title}
        </Link>
      </td>
      {columns.map((c) => (
        <td key={c} className={`col-${c}`}>
          <Cell property={c} issue={issue} colors={colors} />
        </td>
      ))}
    </tr>
  );
}

function Cell({
  property,
  issue,
  colors,
}: {
  property: Property;
  issue: Issue;
  colors: Map<string, string>;
}) {
  switch (property) {
    case "state":
      return (
        <>
          <StateIcon type={issue.state.type} /> {issue.state.name}
        </>
      );
    case "priority":
      return (
        <>
          <PriorityIcon priority={issue.priority} />{" "}
          {PRIORITY_NAMES[issue.priority] ? priorityLabel(issue.priority) : "—"}
        </>
      );
    case "assignee":
      return issue.assignee ? (
        <>
          <Avatar name={issue.assignee.name} /> {issue.assignee.name}
        </>
      ) : (
        <span className="muted">—</span>
      );
    case "labels":
      return (
        <>
          {issue.labels.map((name) => (
            <span key={name} className="label-chip">
              <LabelDot color={colors.get(name)} />
              {name}
            </span>
          ))}
        </>
      );
    case "project":
      return <>{issue.project?.name ?? "—"}</>;
    case "estimate":
      return <>{issue.estimate ?? "—"}</>;
    case "due":
      return <>{issue.dueDate ?? "—"}</>;
  }
}
