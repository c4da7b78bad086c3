import { BOARD_PAGE, issuesQuery } from "./pages/filters.js";
import { storedKey, trackerFor } from "./session.js";
import { store } from "./store.js";
import "./styles.css";

// The SDK keys every write with crypto.randomUUID (the contract's "Idempotent writes"), which browsers
// offer only on https and localhost: a board opened over plain http at another address makes the same
// version-4 UUIDs from getRandomValues, which every page has.
if (typeof crypto.randomUUID !== "function") {
  Object.defineProperty(crypto, "randomUUID", {
    configurable: true,
    value: () => {
      const b = crypto.getRandomValues(new Uint8Array(16));
      b[6] = (b[6]! & 0x0f) | 0x40;
      b[8] = (b[8]! & 0x3f) | 0x80;
      const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  });
}

// This entry is small (the SDK and the cache): a board opened cold asks for its data while React (the
// larger chunk) is still loading and compiling, instead of after its first render.
const apiKey = storedKey();
const [ws, section, team, view] = window.location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
if (apiKey && ws) {
  store.claim(`${apiKey}:${ws}`);
  const tracker = trackerFor(apiKey, ws);
  store.ensure("teams", () => tracker.teams.list());
  if (section === "team" && team && view !== "cycle") {
    const { key, query } = issuesQuery(team, new URLSearchParams(window.location.search), BOARD_PAGE);
    store.ensure(key, () => tracker.issues.list(query));
  }
}

import("./mount.js").then(({ mount }) => mount(document.getElementById("root")!));
