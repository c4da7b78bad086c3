import type { Tracker } from "@tracker/sdk";
import type { LockdownMode } from "./lockdown.js";

/** What every tool, resource and prompt needs: the SDK client it acts through and its time limit. */
export interface ToolDeps {
  tracker: Tracker;
  /** Time limit of each SDK call in ms (`--timeout`, `TRACKER_TIMEOUT_MS`; default 30 s). */
  timeoutMs: number;
  /** The agent runs on this machine (stdio): `attach_file` may read a local `path`. */
  localFiles?: boolean | undefined;
  /** `--lockdown`: text by guests and the code host is fenced (`mark`) or left out (`drop`). */
  lockdown?: LockdownMode | undefined;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
