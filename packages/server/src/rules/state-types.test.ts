import { describe, expect, it } from "vitest";
import {
  FINISHED_STATE_TYPES,
  FINISHED_STATE_TYPES_SQL,
  isFinished,
  OPEN_STATE_TYPES,
  OPEN_STATE_TYPES_SQL,
  STATE_TYPES,
} from "./state-types.js";

describe("state types", () => {
  it("splits the contract's state types into open and finished, each once", () => {
    expect([...OPEN_STATE_TYPES, ...FINISHED_STATE_TYPES].sort()).toEqual([...STATE_TYPES].sort());
    expect(OPEN_STATE_TYPES.filter((t) => FINISHED_STATE_TYPES.includes(t))).toEqual([]);
    expect(STATE_TYPES.filter(isFinished)).toEqual(["completed", "canceled"]);
  });

  it("spells the sets as the partial index and the triggers were made with", () => {
    // The predicate of `issues_open_updated_index`: the planner uses the index only for this exact text.
    expect(OPEN_STATE_TYPES_SQL).toBe("('backlog', 'unstarted', 'started')");
    expect(FINISHED_STATE_TYPES_SQL).toBe("('completed', 'canceled')");
  });
});
