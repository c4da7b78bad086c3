import type { Schemas } from "@tracker/sdk";
import { useApp } from "../app-context.js";
import { ErrorNote } from "../components/widgets.js";
import { Link } from "../router.js";
import { describeError } from "../session.js";
import { store, useData } from "../store.js";
import { GROUPINGS, type Grouping, shownFrom, viewDefaultKey, withDisplay } from "./display.js";
import { searchFromQuery } from "./filters.js";

/** Where a saved issue view opens: its team's board or list, with its filters and grouping in the URL. */
export function viewPath(ws: string, view: Schemas["View"], hidden?: string[]): string {
  const grouping = (GROUPINGS as readonly string[]).includes(view.grouping)
    ? (view.grouping as Grouping)
    : "none";
  const search = withDisplay(
    searchFromQuery({ ...view.filters, ...(view.sort ? { sort: view.sort } : {}) }),
    {
      grouping: view.display === "board" ? "none" : grouping,
      shown: shownFrom(hidden),
    },
  );
  if (!view.team) return `/${ws}/issues${search}`;
  return `/${ws}/team/${view.team}/${view.display === "board" ? "board" : "list"}${search}`;
}

/** The caller's saved views; opening one applies its filters. */
export function ViewsPage() {
  const { tracker, ws, teams, notify } = useApp();
  const views = useData("views", () => tracker.views.list());
  const defaults = useData("view-defaults", () => tracker.viewDefaults.list());
  const hiddenBy = (id: string) => defaults.data?.find((d) => d.viewKey === viewDefaultKey(id))?.hidden;
  const issueViews = views.data?.filter((v) => v.kind === "issues") ?? [];
  const teamKey = (ref: string | null) => teams.find((t) => t.id === ref || t.key === ref)?.key ?? ref;
  return (
    <div className="page">
      <h1>Saved views</h1>
      <ErrorNote error={views.error} />
      {views.data && issueViews.length === 0 && (
        <p className="empty">No saved views. Filter a board or list and press “Save view”.</p>
      )}
      <ul className="plain">
        {issueViews.map((v) => (
          <li key={v.id}>
            <Link data-nav-item to={viewPath(ws, { ...v, team: teamKey(v.team) }, hiddenBy(v.id))}>
              {v.name}
            </Link>{" "}
            <span className="muted">
              {v.team ? teamKey(v.team) : "all teams"} · {v.display}
            </span>{" "}
            <button
              type="button"
              aria-label={`Delete view ${v.name}`}
              onClick={() =>
                tracker.views.delete(v.id).then(
                  () => store.invalidate(["views"]),
                  (e) => notify(describeError(e), "error"),
                )
              }
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
