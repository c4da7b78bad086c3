import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { fakeTracker } from "@tracker/sdk/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { connectClient } from "./test/connect.js";
import { ALL_TOOLS, DEFAULT_TOOLSETS, TOOLSET_NAMES } from "./toolsets.js";

// What agents see of every tool, resource template and prompt, one reviewed file each under __toolsnaps__/
// (as github-mcp-server keeps its tools): a change to an agent's interface shows as a small diff. Run
// `npx vitest run packages/mcp-tools -u` to accept a change on purpose.
const noApi = () =>
  fakeTracker(() => {
    throw new Error("listing must not call the API");
  }).tracker;

let all: Client;
beforeAll(async () => {
  all = await connectClient(noApi(), { toolsets: TOOLSET_NAMES });
});

const snapshot = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe("schema snapshots", () => {
  it("cover every tool, in toolset order", async () => {
    const { tools } = await all.listTools();
    expect(tools.map((t) => t.name)).toEqual(ALL_TOOLS.map((t) => t.name));
    for (const tool of tools)
      await expect(snapshot(tool)).toMatchFileSnapshot(`__toolsnaps__/${tool.name}.json`);
  });

  it("cover the dynamic-discovery tools", async () => {
    const client = await connectClient(noApi(), { dynamic: true });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["list_toolsets", "enable_toolset"]);
    for (const tool of tools)
      await expect(snapshot(tool)).toMatchFileSnapshot(`__toolsnaps__/${tool.name}.json`);
  });

  it("cover every resource template and prompt", async () => {
    for (const template of (await all.listResourceTemplates()).resourceTemplates)
      await expect(snapshot(template)).toMatchFileSnapshot(`__toolsnaps__/resources/${template.name}.json`);
    for (const prompt of (await all.listPrompts()).prompts)
      await expect(snapshot(prompt)).toMatchFileSnapshot(`__toolsnaps__/prompts/${prompt.name}.json`);
  });
});

describe("annotations", () => {
  it("give every tool a title and all three hints; reads are read-only and never destructive", async () => {
    const { tools } = await all.listTools();
    for (const tool of tools) {
      const def = ALL_TOOLS.find((t) => t.name === tool.name)!;
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.outputSchema, tool.name).toBeTypeOf("object");
      expect(tool.annotations, tool.name).toMatchObject({
        readOnlyHint: def.readOnly,
        destructiveHint: def.destructive,
        idempotentHint: def.idempotent,
      });
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(/^(search|get|list|whoami)/.test(tool.name));
      if (tool.annotations?.readOnlyHint) expect(tool.annotations.destructiveHint, tool.name).toBe(false);
      if (tool.annotations?.readOnlyHint) expect(tool.annotations.idempotentHint, tool.name).toBe(true);
    }
    const destructive = tools.filter((t) => t.annotations?.destructiveHint).map((t) => t.name);
    expect(destructive).toEqual([
      "update_issues",
      "comment_issue",
      "relate_issues",
      "move_issues",
      "save_view",
      "save_project",
      "save_initiative",
      "save_document",
      "manage_team_members",
      "manage_labels",
      "manage_workflow_states",
      "manage_webhooks",
      "delete_issue",
    ]);
  });
});

describe("token budget of tools/list", () => {
  // Tokens as bytes / 4 of the tools/list result, as the issue measures them.
  const tokensOf = async (client: Client) => Math.ceil(JSON.stringify(await client.listTools()).length / 4);

  it("keeps the default toolsets under 6,000 tokens and every tool under 15,000", async () => {
    const defaults = await tokensOf(await connectClient(noApi()));
    const everything = await tokensOf(all);
    const dynamic = await tokensOf(await connectClient(noApi(), { dynamic: true }));
    const readOnly = await tokensOf(
      await connectClient(noApi(), { toolsets: TOOLSET_NAMES, readOnly: true }),
    );
    console.log(
      `tools/list tokens (bytes/4): default (${DEFAULT_TOOLSETS.join(", ")}) ${defaults}; ` +
        `all ${ALL_TOOLS.length} tools ${everything}; all read-only ${readOnly}; --dynamic at start ${dynamic}`,
    );
    expect(defaults).toBeLessThan(6_000);
    expect(everything).toBeLessThan(15_000);
    expect(dynamic).toBeLessThan(600);
  });
});
