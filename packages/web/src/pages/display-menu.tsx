import * as Popover from "@radix-ui/react-popover";
import { ISSUE_SORTS } from "@tracker/sdk";
import { useState } from "react";
import { useApp } from "../app-context.js";
import { navigate, useLocation } from "../router.js";
import { describeError } from "../session.js";
import { store } from "../store.js";
import {
  type DisplayOptions,
  GROUPING_NAMES,
  GROUPINGS,
  type Grouping,
  hiddenOf,
  PROPERTIES,
  PROPERTY_NAMES,
  viewDefaultKey,
  withDisplay,
} from "./display.js";
import { type IssueQuery, searchFromQuery } from "./filters.js";

const SORT_NAMES: Record<string, string> = {
  priority: "Priority",
  due: "Due date",
  created: "Created",
  updated: "Updated",
  title: "Title",
  estimate: "Estimate",
  state: "State",
  assignee: "Assignee",
};

function sortName(sort: string): string {
  const name = SORT_NAMES[sort.replace(/^-/, "")] ?? sort;
  return sort.startsWith("-") ? `${name}, descending` : name;
}

/**
 * "Display": grouping, ordering and the properties a row shows (kept in the URL), and saving all of it
 * with the filters as a view (the contract's `View`: `display`, `grouping`, `filters`, `sort`).
 */
export function DisplayMenu({
  filters,
  options,
  display,
  teamKey,
}: {
  filters: IssueQuery;
  options: DisplayOptions;
  display: "board" | "list";
  teamKey: string | undefined;
}) {
  const { tracker, notify } = useApp();
  const { path } = useLocation();
  const [name, setName] = useState("");
  const go = (nextFilters: IssueQuery, nextOptions: DisplayOptions) =>
    navigate(`${path}${withDisplay(searchFromQuery(nextFilters), nextOptions)}`, { replace: true });

  const save = async () => {
    if (!name.trim()) return;
    try {
      const { sort, ...rest } = filters;
      const view = await tracker.views.create({
        name: name.trim(),
        kind: "issues",
        team: teamKey ?? null,
        display,
        grouping: options.grouping,
        filters: rest,
        sort: sort ?? null,
      });
      await tracker.viewDefaults.put({ viewKey: viewDefaultKey(view.id), hidden: hiddenOf(options.shown) });
      store.invalidate(["views", "view-defaults"]);
      notify(`Saved the view “${name.trim()}”.`);
      setName("");
    } catch (error) {
      notify(describeError(error), "error");
    }
  };

  return (
    <Popover.Root>
      <Popover.Trigger className="display-button">Display</Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="picker display-menu"
          aria-label="Display"
          align="end"
          sideOffset={4}
          collisionPadding={8}
        >
          {display === "list" && (
            <label>
              Grouping
              <select
                value={options.grouping}
                onChange={(e) => go(filters, { ...options, grouping: e.target.value as Grouping })}
              >
                {GROUPINGS.map((g) => (
                  <option key={g} value={g}>
                    {GROUPING_NAMES[g]}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label>
            Ordering
            <select
              value={filters.sort ?? ""}
              onChange={(e) =>
                go({ ...filters, sort: (e.target.value || undefined) as IssueQuery["sort"] }, options)
              }
            >
              <option value="">Recently updated</option>
              {ISSUE_SORTS.map((s) => (
                <option key={s} value={s}>
                  {sortName(s)}
                </option>
              ))}
            </select>
          </label>
          {display === "list" && (
            <fieldset>
              <legend>Properties</legend>
              {PROPERTIES.map((p) => (
                <label key={p} className="check">
                  <input
                    type="checkbox"
                    checked={options.shown.includes(p)}
                    onChange={(e) =>
                      go(filters, {
                        ...options,
                        shown: e.target.checked
                          ? [...options.shown, p]
                          : options.shown.filter((x) => x !== p),
                      })
                    }
                  />
                  {PROPERTY_NAMES[p]}
                </label>
              ))}
            </fieldset>
          )}
          <form
            className="save-view"
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <label>
              Save as a view
              <input value={name} onChange={(e) => setName(e.target.value)} placeholder="View name" />
            </label>
            <button type="submit" disabled={!name.trim()}>
              Save view
            </button>
          </form>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
