import { describe, expect, it } from "vitest";
import { anIssue, fakeTracker, json, testDeps } from "../../test/fake-api.js";
import { run as create } from "./create.js";
import { run as edit } from "./edit.js";
import { run as view } from "./view.js";

describe("tracker issues create / edit / view", () => {
  it("creates with names people use and prints the identifier", async () => {
    const { tracker, sent } = fakeTracker(() => json(201, { issue: anIssue({ identifier: "ENG-7" }) }));
    const { deps, stdout } = testDeps(tracker);
    await create(
      { team: "ENG", title: "Fix login", priority: "high", assignee: "me", label: ["bug,web", "ios"] },
      deps,
    );
    expect(sent[0]).toMatchObject({
      method: "POST",
      path: "/issues",
      body: { team: "ENG", title: "Fix login", priority: 2, assignee: "me", labels: ["bug", "web", "ios"] },
    });
    expect(stdout.text).toBe("ENG-7\n");
  });

  it("edits only the given fields; --assignee none unassigns", async () => {
    const { tracker, sent } = fakeTracker(() => json(200, { issue: anIssue({ identifier: "ENG-7" }) }));
    const { deps } = testDeps(tracker);
    await edit(
      { id: "ENG-7", state: "In Review", assignee: "none", addLabel: ["bug"], removeLabel: ["triage"] },
      deps,
    );
    expect(sent[0]).toMatchObject({ method: "PATCH", path: "/issues/ENG-7" });
    expect(sent[0]!.body).toEqual({
      state: "In Review",
      assignee: null,
      addLabels: ["bug"],
      removeLabels: ["triage"],
    });
  });

  it("views an issue as key/value lines when piped", async () => {
    const detail = {
      ...anIssue({ identifier: "ENG-7", description: "Steps:\n1. log in" }),
      comments: [],
      subIssues: [],
      relations: [],
    };
    const { tracker } = fakeTracker(() => json(200, { issue: detail }));
    const { deps, stdout } = testDeps(tracker);
    await view({ id: "ENG-7" }, deps);
    expect(stdout.text).toContain("identifier:\tENG-7\n");
    expect(stdout.text).toContain("state:\tIn Progress\n");
    expect(stdout.text).toContain("--\nSteps:\n1. log in\n");
  });
});
