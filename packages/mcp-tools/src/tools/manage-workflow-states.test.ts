import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("manage_workflow_states", () => {
  it("adds, renames, recolours and moves a state, answering the team's states in order", async () => {
    const added = await call("manage_workflow_states", {
      team: "ops",
      action: "create",
      name: "QA",
      type: "started",
      color: "#f2994a",
    });
    expect(added.text).toBe(
      "Added QA (started, #f2994a) to OPS at position 4.\n" +
        "OPS states: Backlog (backlog), Todo (unstarted), In Progress (started), In Review (started), QA (started), Done (completed), Canceled (canceled).",
    );
    expect(added.data).toMatchObject({
      states: expect.arrayContaining([{ name: "QA", type: "started", color: "#f2994a", position: 4 }]),
    });
    const renamed = await call("manage_workflow_states", {
      team: "OPS",
      action: "update",
      state: "qa",
      name: "Testing",
      color: "#000000",
      position: 0,
    });
    expect(renamed.text).toMatch(
      /^qa is now Testing \(started, #000000\) at position 0\.\nOPS states: Testing \(started\), Backlog/,
    );
    expect((await ws.sdk.teams.states("OPS")).map((s) => s.name)[0]).toBe("Testing");
  });

  it("deletes a state, moving its issues; says what to pass when they need a home", async () => {
    await ws.sdk.teams.createState("OPS", { name: "Blocked", type: "started" });
    const issue = await ws.sdk.issues.create({ team: "OPS", title: "Waiting on vendor", state: "Blocked" });
    const refused = await call("manage_workflow_states", { team: "OPS", action: "delete", state: "Blocked" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(
      /^invalid_request: "Blocked" holds 1 issue: say which state they move to \(moveTo\)/,
    );
    const wrong = await call("manage_workflow_states", {
      team: "OPS",
      action: "delete",
      state: "Blocked",
      moveTo: "Doing",
    });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain("Valid states for OPS:");
    const deleted = await call("manage_workflow_states", {
      team: "OPS",
      action: "delete",
      state: "Blocked",
      moveTo: "In Progress",
    });
    expect(deleted.text).toMatch(/^Deleted Blocked from OPS; 1 issues moved to In Progress\.\nOPS states: /);
    expect(deleted.data).toMatchObject({ moved: 1 });
    expect((await ws.sdk.issues.get(issue.identifier)).state.name).toBe("In Progress");
  });

  it("refuses what it cannot do and says what it needs", async () => {
    const noType = await call("manage_workflow_states", { team: "OPS", action: "create", name: "Later" });
    expect(noType).toMatchObject({ isError: true });
    expect(noType.text).toMatch(/^create needs `name` and `type`/);
    const nothing = await call("manage_workflow_states", { team: "OPS", action: "update", state: "Todo" });
    expect(nothing.text).toMatch(/^update needs `name`, `color` or `position`; a state's type cannot change/);
    const taken = await call("manage_workflow_states", {
      team: "OPS",
      action: "update",
      state: "Todo",
      name: "done",
    });
    expect(taken.text).toMatch(/^state_name_taken: OPS already has a workflow state named "done"/);
  });
});
