import { ISSUE_SPECIAL_FILTERS, PRIORITY_NAMES, STATE_TYPES } from "@tracker/sdk";
import { useEffect, useRef, useState } from "react";
import { useApp } from "../app-context.js";
import { Picker, type PickerOption } from "../components/picker.js";
import { Avatar, LabelDot, StateIcon } from "../components/widgets.js";
import { navigate, useLocation } from "../router.js";
import { store, useData } from "../store.js";
import { displayFromSearch, withDisplay } from "./display.js";
import { type IssueQuery, searchFromQuery } from "./filters.js";

const words = (s: string) => s.replace(/_/g, " ");
const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);
/** A priority name as the board shows it: "none" is "No priority". */
const priorityText = (p: string) => (p === "none" ? "No priority" : capital(p));

/**
 * The list filters of the contract's `listIssues` as chips: each one set shows as "Name: value ×",
 * "Filter" adds one from a searchable list, and the search box finds text or an identifier. Everything
 * stays in the URL (filters.ts).
 */
export function FilterBar({
  filters,
  teamKey,
  listKey,
}: {
  filters: IssueQuery;
  teamKey: string | undefined;
  /** The cache key of what is listed now: its fetch is cancelled when the search is typed further. */
  listKey: string;
}) {
  const { tracker, teams } = useApp();
  const team = teamKey ? teams.find((t) => t.key.toLowerCase() === teamKey.toLowerCase()) : undefined;
  const { path, search } = useLocation();
  // The choices are fetched when the filters are used (or one is set), not with the board itself.
  const [wanted, setWanted] = useState(
    Boolean(
      filters.assignee || filters.creator || filters.project || filters.cycle !== undefined || filters.label,
    ),
  );
  const users = useData(wanted ? "users" : null, () => tracker.users.list());
  const projects = useData(wanted ? "projects:all" : null, () => tracker.projects.list({ limit: 200 }));
  const labels = useData(wanted ? "labels" : null, () => tracker.labels.list());
  const cycles = useData(wanted && teamKey ? `cycles:${teamKey}` : null, () => tracker.cycles.list(teamKey!));
  const [q, setQ] = useState(filters.q ?? "");
  const input = useRef<HTMLInputElement>(null);

  const apply = (change: Partial<IssueQuery>) => {
    const next = { ...filters, ...change };
    navigate(`${path}${withDisplay(searchFromQuery(next), displayFromSearch(search))}`, { replace: true });
  };
  const latest = useRef({ apply, filters, listKey });
  latest.current = { apply, filters, listKey };
  // The search applies as it is typed (150 ms after the last key), the URL's `q` kept in step; a key
  // typed cancels the list's fetch still in flight for the text before it (`store.cancel`).
  const cancelled = useRef(false);
  useEffect(() => {
    const want = q.trim() || undefined;
    const timer = setTimeout(() => {
      const { apply, filters, listKey } = latest.current;
      if (want !== filters.q) apply({ q: want });
      else if (cancelled.current) store.invalidate([listKey]);
      cancelled.current = false;
    }, 150);
    return () => clearTimeout(timer);
  }, [q]);
  // The URL changed otherwise (a view, back, a link): the box shows its `q`, unless being typed in.
  useEffect(() => {
    if (document.activeElement !== input.current) setQ(filters.q ?? "");
  }, [filters.q]);
  const toggle = <T extends string>(values: T[] | undefined, value: T) =>
    values?.includes(value) ? values.filter((v) => v !== value) : [...(values ?? []), value];
  // The list takes priorities by name or number (a URL may say `priority=1`); the chips speak names.
  const priorities = filters.priority?.map((p) =>
    typeof p === "number" ? (PRIORITY_NAMES[p] ?? "none") : p,
  );

  const userName = (v: string) =>
    v === "me"
      ? "Me"
      : v === "none"
        ? "No one"
        : (users.data?.find((u) => u.email === v || u.id === v)?.name ?? v);
  // Issue 37's filters with one value each, as chips; ranges read "Estimate ≥ 2", "Due before 2026-12-31".
  const single: [keyof IssueQuery, string | undefined][] = [
    ["creator", filters.creator && `Creator: ${userName(filters.creator)}`],
    [
      "parent",
      filters.parent &&
        (filters.parent === "none"
          ? "Top-level only"
          : filters.parent === "any"
            ? "Has a parent"
            : `Parent: ${filters.parent}`),
    ],
    ["estimateMin", filters.estimateMin !== undefined ? `Estimate ≥ ${filters.estimateMin}` : undefined],
    ["estimateMax", filters.estimateMax !== undefined ? `Estimate ≤ ${filters.estimateMax}` : undefined],
    ["dueAfter", filters.dueAfter && `Due from ${filters.dueAfter}`],
    ["dueBefore", filters.dueBefore && `Due before ${filters.dueBefore}`],
    [
      "archived",
      filters.archived === "true" ? "Archived only" : filters.archived === "any" ? "Archived too" : undefined,
    ],
  ];
  const cycleName = (v: IssueQuery["cycle"]) =>
    v === "current" ? "Current" : (cycles.data?.find((c) => c.number === v)?.name ?? `Cycle ${String(v)}`);

  const chips: { key: string; text: string; remove: Partial<IssueQuery> }[] = [
    ...(filters.state
      ? [{ key: "state", text: `State: ${filters.state}`, remove: { state: undefined } }]
      : []),
    ...(filters.stateType ?? []).map((t) => ({
      key: `stateType:${t}`,
      text: `State: ${t}`,
      remove: { stateType: toggle(filters.stateType, t) },
    })),
    ...(filters.assignee
      ? [
          {
            key: "assignee",
            text: `Assignee: ${userName(filters.assignee)}`,
            remove: { assignee: undefined },
          },
        ]
      : []),
    ...(priorities ?? []).map((p) => ({
      key: `priority:${p}`,
      text: `Priority: ${priorityText(p)}`,
      remove: { priority: toggle(priorities, p) },
    })),
    ...single.flatMap(([key, text]) => (text ? [{ key, text, remove: { [key]: undefined } }] : [])),
    ...(filters.project
      ? [{ key: "project", text: `Project: ${filters.project}`, remove: { project: undefined } }]
      : []),
    ...(filters.cycle !== undefined
      ? [{ key: "cycle", text: `Cycle: ${cycleName(filters.cycle)}`, remove: { cycle: undefined } }]
      : []),
    ...(filters.label ?? []).map((l) => ({
      key: `label:${l}`,
      text: l === "none" && filters.label?.length === 1 ? "No labels" : `Label: ${l}`,
      remove: { label: toggle(filters.label, l) },
    })),
    ...(filters.special ?? []).map((s) => ({
      key: `special:${s}`,
      text: words(s),
      remove: { special: toggle(filters.special, s) },
    })),
  ];

  // Every filter value that can be added, as one searchable list ("Assignee: Ada", "Label: Bug", …).
  const choices: (PickerOption & { change: Partial<IssueQuery> })[] = [
    // The team's states by name (the contract's `listIssues` takes one `state` name, with `team`): one
    // at a time, a second replacing the first.
    ...(team?.states ?? [])
      .filter((s) => s.name.toLowerCase() !== filters.state?.toLowerCase())
      .map((s) => ({
        value: `state:${s.id}`,
        label: `State: ${s.name}`,
        icon: <StateIcon type={s.type} />,
        change: { state: s.name },
      })),
    ...STATE_TYPES.filter((t) => !filters.stateType?.includes(t)).map((t) => ({
      value: `stateType:${t}`,
      label: `State: ${t}`,
      icon: <StateIcon type={t} />,
      change: { stateType: toggle(filters.stateType, t) },
    })),
    ...PRIORITY_NAMES.filter((p) => !priorities?.includes(p)).map((p) => ({
      value: `priority:${p}`,
      label: `Priority: ${priorityText(p)}`,
      change: { priority: toggle(priorities, p) },
    })),
    { value: "assignee:me", label: "Assignee: Me", icon: <Avatar name="Me" />, change: { assignee: "me" } },
    { value: "assignee:none", label: "Assignee: No one", change: { assignee: "none" } },
    { value: "creator:me", label: "Creator: Me", change: { creator: "me" } },
    ...(users.data ?? []).map((u) => ({
      value: `creator:${u.id}`,
      label: `Creator: ${u.name}`,
      keywords: [u.email],
      change: { creator: u.email },
    })),
    { value: "parent:none", label: "Top-level only", change: { parent: "none" } },
    { value: "parent:any", label: "Has a parent", change: { parent: "any" } },
    { value: "label:none", label: "No labels", change: { label: ["none"] } },
    // Archived issues leave every list (openapi.yaml, `archiveIssue`); here they can be found again.
    { value: "archived:true", label: "Archived only", change: { archived: "true" } },
    { value: "archived:any", label: "Archived too", change: { archived: "any" } },
    ...(users.data ?? []).map((u) => ({
      value: `assignee:${u.id}`,
      label: `Assignee: ${u.name}`,
      keywords: [u.email],
      icon: <Avatar name={u.name} />,
      change: { assignee: u.email },
    })),
    ...(projects.data?.items ?? []).map((p) => ({
      value: `project:${p.id}`,
      label: `Project: ${p.name}`,
      change: { project: p.name },
    })),
    ...(teamKey
      ? [
          { value: "cycle:current", label: "Cycle: Current", change: { cycle: "current" as const } },
          ...(cycles.data ?? []).map((c) => ({
            value: `cycle:${c.number}`,
            label: `Cycle: ${c.name ?? `Cycle ${c.number}`}`,
            change: { cycle: c.number },
          })),
        ]
      : []),
    ...(labels.data ?? [])
      .filter((l) => !filters.label?.includes(l.name))
      .map((l) => ({
        value: `label:${l.id}`,
        label: `Label: ${l.name}`,
        icon: <LabelDot color={l.color} />,
        change: { label: [...(filters.label ?? []), l.name] },
      })),
    ...ISSUE_SPECIAL_FILTERS.filter((s) => !filters.special?.includes(s)).map((s) => ({
      value: `special:${s}`,
      label: capital(words(s)),
      change: { special: toggle(filters.special, s) },
    })),
  ];

  return (
    <section
      className="filters"
      aria-label="Filters"
      onFocus={() => setWanted(true)}
      onPointerEnter={() => setWanted(true)}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if ((q.trim() || undefined) !== filters.q) apply({ q: q.trim() || undefined });
        }}
      >
        <input
          ref={input}
          type="search"
          aria-label="Search"
          value={q}
          onChange={(e) => {
            if (store.cancel(listKey)) cancelled.current = true;
            setQ(e.target.value);
          }}
          placeholder="Search text or ENG-12"
        />
      </form>
      {chips.map((chip) => (
        <span key={chip.key} className="chip">
          {chip.text}
          <button
            type="button"
            className="chip-remove"
            aria-label={`Remove the filter ${chip.text}`}
            onClick={() => apply(chip.remove)}
          >
            ×
          </button>
        </span>
      ))}
      <Picker
        label="Filter"
        value={null}
        options={choices}
        onChange={(value) => {
          const choice = choices.find((c) => c.value === value);
          if (choice) apply(choice.change);
        }}
        className="add-filter"
        triggerLabel="Add a filter"
      >
        + Filter
      </Picker>
    </section>
  );
}
