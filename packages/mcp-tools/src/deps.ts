import type { Tracker } from "@tracker/sdk";

/** What every tool needs; tests pass a Tracker built on a canned `fetch`. */
export interface ToolDeps {
  tracker: Tracker;
}
