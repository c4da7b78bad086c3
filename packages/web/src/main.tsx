import { issuesFetcher } from "./issue-lists.js";
import { issuesQuery } from "./pages/filters.js";
import { storedKey, trackerFor } from "./session.js";
import { store } from "./store.js";
import "./styles.css";

// This entry is small (the SDK and the cache): a board opened cold asks for its data while React (the
// larger chunk) is still loading and compiling, instead of after its first render.
const apiKey = storedKey();
const [ws, section, team, view] = window.location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
if (apiKey && ws) {
  store.claim(`${apiKey}:${ws}`);
  const tracker = trackerFor(apiKey, ws);
  store.ensure("teams", () => tracker.teams.list());
  if (section === "team" && team && view !== "cycle") {
    const { key, query } = issuesQuery(team, new URLSearchParams(window.location.search));
    store.ensure(key, issuesFetcher(tracker, key, query));
  }
}

import("./mount.js").then(({ mount }) => mount(document.getElementById("root")!));
