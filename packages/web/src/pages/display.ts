import type { Schemas } from "@tracker/sdk";

/**
 * How a list shows its issues, kept in the URL beside the filters (`group`, `hide`) and saved with a
 * view: `grouping` is the contract's `ViewGrouping` (`status` groups by workflow state).
 */
export const GROUPINGS = [
  "none",
  "status",
  "assignee",
  "priority",
  "project",
  "label",
] as const satisfies readonly Schemas["ViewGrouping"][];
export type Grouping = (typeof GROUPINGS)[number];

export const GROUPING_NAMES: Record<Grouping, string> = {
  none: "No grouping",
  status: "State",
  assignee: "Assignee",
  priority: "Priority",
  project: "Project",
  label: "Label",
};

/** The properties a list row can show; the identifier and the title always show. */
export const PROPERTIES = ["state", "priority", "assignee", "labels", "project", "estimate", "due"] as const;
export type Property = (typeof PROPERTIES)[number];

export const PROPERTY_NAMES: Record<Property, string> = {
  state: "State",
  priority: "Priority",
  assignee: "Assignee",
  labels: "Labels",
  project: "Project",
  estimate: "Estimate",
  due: "Due",
};

/** Shown unless the person hides them: what the list showed before it could be changed. */
const SHOWN_BY_DEFAULT: Property[] = ["state", "priority", "assignee", "labels", "due"];

/**
 * A saved view's properties shown travel as the view default of its own key (`view:<id>`): the
 * contract's `View` has no field for them, its `ViewDefault.hidden` names what a view hides.
 */
export const viewDefaultKey = (viewId: string) => `view:${viewId}`;

export const hiddenOf = (shown: Property[]) => PROPERTIES.filter((p) => !shown.includes(p));

export const shownFrom = (hidden: string[] | undefined): Property[] =>
  hidden ? PROPERTIES.filter((p) => !hidden.includes(p)) : SHOWN_BY_DEFAULT;

export interface DisplayOptions {
  grouping: Grouping;
  shown: Property[];
}

export function displayFromSearch(search: URLSearchParams): DisplayOptions {
  const group = search.get("group");
  const grouping = (GROUPINGS as readonly string[]).includes(group ?? "") ? (group as Grouping) : "none";
  const show = search.get("show");
  const shown = show === null ? SHOWN_BY_DEFAULT : PROPERTIES.filter((p) => show.split(",").includes(p));
  return { grouping, shown };
}

/** The URL parameters of display options that differ from the defaults (appended to the filters' query). */
export function searchFromDisplay(display: DisplayOptions): string {
  const params = new URLSearchParams();
  if (display.grouping !== "none") params.set("group", display.grouping);
  const same =
    display.shown.length === SHOWN_BY_DEFAULT.length &&
    SHOWN_BY_DEFAULT.every((p) => display.shown.includes(p));
  if (!same) params.set("show", PROPERTIES.filter((p) => display.shown.includes(p)).join(","));
  return params.toString().replace(/%2C/g, ",");
}

/** A path's query with the display options added to the filters' own (`?a=1` + `group=x`). */
export function withDisplay(filterSearch: string, display: DisplayOptions): string {
  const extra = searchFromDisplay(display);
  if (!extra) return filterSearch;
  return filterSearch ? `${filterSearch}&${extra}` : `?${extra}`;
}
