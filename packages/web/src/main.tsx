import { columnList, issuesFetcher } from "./issue-lists.js";
import { issuesQuery } from "./pages/filters.js";
import { storedKey, trackerFor } from "./session.js";
import { store } from "./store.js";
import { applyTheme, storedTheme } from "./theme.js";
import "./styles.css";

// The theme chosen (light, dark, or the system's) before anything paints.
applyTheme(storedTheme());

// This entry is small (the SDK and the cache): a board opened cold asks for its data while React (the
// larger chunk) is still loading and compiling, instead of after its first render.
const apiKey = storedKey();
const [ws, section, team, view] = window.location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
if (apiKey && ws) {
  store.claim(`${apiKey}:${ws}`);
  const tracker = trackerFor(apiKey, ws);
  const teams = tracker.teams.list();
  store.ensure("teams", () => teams);
  if (section === "team" && team && view === "list") {
    const { key, query } = issuesQuery(team, new URLSearchParams(window.location.search));
    store.ensure(key, issuesFetcher(tracker, key, query));
  } else if (section === "team" && team && view === "board") {
    // A board reads one list per column, which the team's states name.
    const { key, query } = issuesQuery(team, new URLSearchParams(window.location.search));
    teams.then(
      (all) => {
        const states = all.find((t) => t.key.toLowerCase() === team.toLowerCase())?.states ?? [];
        for (const state of states) {
          const column = columnList(key, query, state);
          if (column) store.ensure(column.key, issuesFetcher(tracker, column.key, column.query));
        }
      },
      () => undefined,
    );
  }
}

import("./mount.js").then(({ mount }) => mount(document.getElementById("root")!));
