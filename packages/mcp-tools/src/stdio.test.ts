import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio } from "./test/connect.js";
import { callEveryTool, TOOL_CALLS } from "./test/tool-calls.js";
import { useWorkspace } from "./test/workspace.js";
import { ALL_TOOLS } from "./toolsets.js";

// The built `tracker-mcp` binary, spawned as a desktop agent spawns it, against a real server.
const ws = useWorkspace();
let client: Client;

beforeAll(async () => {
  client = await connectStdio({ TRACKER_URL: ws.url, TRACKER_API_KEY: ws.token, TRACKER_TOOLSETS: "all" });
});
afterAll(async () => {
  await client?.close();
});

describe("tracker-mcp over stdio", () => {
  it("lists every tool, the resource templates and lists, and the prompts", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(ALL_TOOLS.map((t) => t.name));
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "tracker://issues/{identifier}",
      "tracker://projects/{name}",
      "tracker://documents/{id}",
      "tracker://teams/{key}",
      "tracker://teams/{key}/states/{state}",
      "tracker://labels/{name}",
    ]);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(["tracker://issues/ENG-1", "tracker://projects/Launch", "tracker://teams/ENG"]),
    );
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["triage", "standup", "project_update"]);
  });

  it("calls every tool with good and with bad input", async () => {
    expect(TOOL_CALLS.map((c) => c.tool).sort()).toEqual(ALL_TOOLS.map((t) => t.name).sort());
    await callEveryTool(client);
  });
});
