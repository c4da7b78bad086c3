import { describe, expect, it } from "vitest";
import { connectClient } from "./test/connect.js";
import { fakeTracker } from "./test/fake-api.js";

// What agents see of every tool, as tools/list sends it. A change here is a change to the agents' interface:
// review the snapshot diff like an API change.
describe("tool schemas", () => {
  it("match the reviewed snapshot", async () => {
    const { tracker } = fakeTracker(() => {
      throw new Error("listing tools must not call the API");
    });
    const client = await connectClient(tracker);
    const { tools } = await client.listTools();
    const seen = tools.map(({ name, title, description, annotations, inputSchema }) => ({
      name,
      title,
      description,
      annotations,
      inputSchema,
    }));
    expect(seen.map((t) => t.name)).toEqual([
      "search_issues",
      "get_issue",
      "create_issue",
      "update_issue",
      "add_comment",
      "move_issues",
      "list_teams",
      "list_users",
      "whoami",
    ]);
    for (const tool of seen) expect(tool).toMatchSnapshot(tool.name);
  });

  it("marks reads read-only and writes as such", async () => {
    const { tracker } = fakeTracker(() => new Response(null, { status: 500 }));
    const { tools } = await (await connectClient(tracker)).listTools();
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(/^(search|get|list|whoami)/.test(tool.name));
      expect(typeof tool.annotations?.destructiveHint, tool.name).toBe("boolean");
      expect(typeof tool.annotations?.idempotentHint, tool.name).toBe("boolean");
    }
  });
});
