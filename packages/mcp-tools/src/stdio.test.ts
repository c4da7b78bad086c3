import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, MAIN_JS, textOf } from "./test/connect.js";
import { callEveryTool, TOOL_CALLS } from "./test/tool-calls.js";
import { useWorkspace } from "./test/workspace.js";
import { ALL_TOOLS, TOOLSETS } from "./toolsets.js";

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

  it("names the toolsets left out in its tool list, turns one on and tells the client; --read-only holds", async () => {
    const plain = await connectStdio({ TRACKER_URL: ws.url, TRACKER_API_KEY: ws.token });
    try {
      let changed = 0;
      plain.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
      });
      const before = (await plain.listTools()).tools;
      const enable = before.find((t) => t.name === "enable_toolset")!;
      expect(enable.description).toMatch(/\nplanning: projects, initiatives, cycles, status updates\n/);
      expect(enable.description).toContain("\ndocs: documents, file attachments");
      expect(before.map((t) => t.name)).not.toContain("list_projects");
      const good = await plain.callTool({ name: "enable_toolset", arguments: { toolset: "planning" } });
      expect(textOf(good)).toMatch(/^Enabled planning: create_issues, list_projects, /);
      await expect.poll(() => changed).toBeGreaterThanOrEqual(1);
      const after = (await plain.listTools()).tools.map((t) => t.name);
      expect(after).toEqual([...before.map((t) => t.name), ...TOOLSETS.planning.tools.map((t) => t.name)]);
      expect(textOf(await plain.callTool({ name: "list_projects", arguments: {} }))).toMatch(
        /^Launch \[started\]/m,
      );
      // Over stdio the agent's files are this machine's: attach_file reads a path.
      await plain.callTool({ name: "enable_toolset", arguments: { toolset: "docs" } });
      const attached = await plain.callTool({
        name: "attach_file",
        arguments: { identifier: "ENG-2", path: MAIN_JS, fileName: "main.js" },
      });
      expect(textOf(attached)).toMatch(/^Attached main\.js \(/);
    } finally {
      await plain.close();
    }
    const reading = await connectStdio({ TRACKER_URL: ws.url, TRACKER_API_KEY: ws.token }, ["--read-only"]);
    try {
      await reading.callTool({ name: "enable_toolset", arguments: { toolset: "planning" } });
      const names = (await reading.listTools()).tools.map((t) => t.name);
      expect(names).toContain("list_projects");
      expect(names).not.toContain("save_project");
      expect(names.every((n) => /^(search|get|list|whoami|enable_toolset)/.test(n))).toBe(true);
    } finally {
      await reading.close();
    }
  });

  it("starts with --dynamic on the two discovery tools and enables a toolset, telling the client", async () => {
    const dynamic = await connectStdio({ TRACKER_URL: ws.url, TRACKER_API_KEY: ws.token }, [
      "--dynamic",
      "--read-only",
    ]);
    try {
      let changed = 0;
      dynamic.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
      });
      expect((await dynamic.listTools()).tools.map((t) => t.name)).toEqual([
        "list_toolsets",
        "enable_toolset",
      ]);
      expect(textOf(await dynamic.callTool({ name: "list_toolsets", arguments: {} }))).toMatch(
        /^\[off\] issues: .*\(search_issues, get_issue\)$/m,
      );
      const bad = await dynamic.callTool({ name: "enable_toolset", arguments: { toolset: "everything" } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/expected one of "issues"/);
      const good = await dynamic.callTool({ name: "enable_toolset", arguments: { toolset: "docs" } });
      expect(textOf(good)).toBe("Enabled docs: search_documents, get_document.");
      await expect.poll(() => changed).toBeGreaterThanOrEqual(1);
      const names = (await dynamic.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(["list_toolsets", "enable_toolset", "search_documents", "get_document"]);
      expect(names).not.toContain(TOOLSETS.docs.tools.find((t) => !t.readOnly)!.name);
    } finally {
      await dynamic.close();
    }
  });
});
