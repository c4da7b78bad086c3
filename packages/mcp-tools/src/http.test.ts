import { request } from "node:http";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningHttpServer, startHttpServer } from "./http.js";
import { connectHttp, textOf } from "./test/connect.js";
import { callEveryTool } from "./test/tool-calls.js";
import { useWorkspace } from "./test/workspace.js";
import { ALL_TOOLS, TOOLSET_NAMES, TOOLSETS } from "./toolsets.js";

// `tracker-mcp --http` against a real server: one deployment, each session acting with its own key.
const ws = useWorkspace();
let http: RunningHttpServer;
const clients: Client[] = [];

beforeAll(async () => {
  http = await startHttpServer({
    port: 0,
    host: "127.0.0.1",
    allowedOrigins: ["https://agent.example.com"],
    trackerUrl: ws.url,
    timeoutMs: 10_000,
    toolsets: TOOLSET_NAMES,
  });
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await http?.close();
});

async function connect(apiKey: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = await connectHttp(http.url, apiKey, headers);
  clients.push(client);
  return client;
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1" } },
};

/** A raw POST to the endpoint, with whatever headers a test needs (Host included, which fetch cannot set). */
function post(
  headers: Record<string, string>,
  body: unknown = initialize,
): Promise<{ status: number; text: string; sessionId: string | undefined }> {
  const url = new URL(http.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        const sessionId = res.headers["mcp-session-id"];
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            text,
            sessionId: typeof sessionId === "string" ? sessionId : undefined,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("tracker-mcp over Streamable HTTP", () => {
  it("lists every tool, the resource templates and the prompts", async () => {
    const client = await connect(ws.token);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(ALL_TOOLS.map((t) => t.name));
    expect((await client.listResourceTemplates()).resourceTemplates).toHaveLength(6);
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain("tracker://teams/ENG");
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual([
      "triage",
      "standup",
      "project_update",
    ]);
  });

  it("calls every tool with good and with bad input", async () => {
    await callEveryTool(await connect(ws.token));
  });

  it("acts in each session with the key of that session's Authorization header", async () => {
    const [ada, bob] = [await connect(ws.token), await connect(ws.bob.token)];
    expect(textOf(await ada.callTool({ name: "whoami", arguments: {} }))).toMatch(/^You are Ada Lovelace/);
    expect(textOf(await bob.callTool({ name: "whoami", arguments: {} }))).toContain(
      `<${ws.bob.email}>, member`,
    );
    const filed = await bob.callTool({
      name: "create_issue",
      arguments: { team: "ENG", title: "Filed by Bob" },
    });
    const identifier = (filed.structuredContent as { issue: { identifier: string } }).issue.identifier;
    const filedIssue = await ws.sdk.issues.get(identifier);
    expect(filedIssue.title).toBe("Filed by Bob");
    expect(http.sessions()).toBeGreaterThanOrEqual(2);
  });

  it("lets a session choose its toolsets and read-only with headers, never past the deployment's exclusions", async () => {
    const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);
    const docs = await connect(ws.token, { "X-MCP-Toolsets": "docs", "X-MCP-Tools": "whoami" });
    expect(await names(docs)).toEqual([
      "whoami",
      "search_documents",
      "get_document",
      "save_document",
      "attach_file",
      "enable_toolset",
    ]);
    const reading = await connect(ws.token, { "X-MCP-Toolsets": "issues,docs", "X-MCP-Readonly": "true" });
    expect(await names(reading)).toEqual([
      "search_issues",
      "get_issue",
      "search_documents",
      "get_document",
      "enable_toolset",
    ]);
    const refused = await post({
      authorization: `Bearer ${ws.token}`,
      "x-mcp-toolsets": "issues,everything",
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Unknown toolset everything; choose from: all, default, issues");

    const narrow = await startHttpServer({
      port: 0,
      host: "127.0.0.1",
      allowedOrigins: [],
      trackerUrl: ws.url,
      timeoutMs: 10_000,
      readOnly: true,
      excludeTools: ["get_document"],
    });
    try {
      const client = await connectHttp(narrow.url, ws.token, {
        "X-MCP-Toolsets": "docs",
        "X-MCP-Readonly": "false",
      });
      expect(await names(client)).toEqual(["search_documents", "enable_toolset"]);
      await client.close();
    } finally {
      await narrow.close();
    }
  });

  it("names the toolsets a session leaves out in its tool list, and turns one on, telling the client", async () => {
    const client = await connect(ws.token, { "X-MCP-Toolsets": "issues" });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    const before = (await client.listTools()).tools;
    const enable = before.find((t) => t.name === "enable_toolset")!;
    expect(before.at(-1)!.name).toBe("enable_toolset");
    for (const name of TOOLSET_NAMES.filter((n) => n !== "issues"))
      expect(enable.description).toContain(`\n${name}: ${TOOLSETS[name].short}`);
    const enabled = await client.callTool({ name: "enable_toolset", arguments: { toolset: "planning" } });
    expect(textOf(enabled)).toBe(
      `Enabled planning: ${TOOLSETS.planning.tools.map((t) => t.name).join(", ")}.`,
    );
    await expect.poll(() => changed).toBeGreaterThanOrEqual(1);
    const after = (await client.listTools()).tools;
    expect(after.map((t) => t.name)).toEqual([
      ...before.map((t) => t.name),
      ...TOOLSETS.planning.tools.map((t) => t.name),
    ]);
    expect(after.find((t) => t.name === "enable_toolset")!.description).not.toContain("\nplanning:");
    expect(textOf(await client.callTool({ name: "list_projects", arguments: {} }))).toMatch(
      /^Launch \[started\]/m,
    );

    // Read-only: only the toolset's reads appear.
    const reading = await connect(ws.token, { "X-MCP-Toolsets": "issues", "X-MCP-Readonly": "true" });
    await reading.callTool({ name: "enable_toolset", arguments: { toolset: "docs" } });
    expect((await reading.listTools()).tools.map((t) => t.name)).toEqual([
      "search_issues",
      "get_issue",
      "enable_toolset",
      "search_documents",
      "get_document",
    ]);
  });

  it("offers each key only the tools its role may call", async () => {
    const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);
    expect(await names(await connect(ws.token))).toContain("invite_member");
    const bob = await names(await connect(ws.bob.token));
    expect(bob).not.toContain("invite_member");
    expect(bob).toContain("manage_team_members");
    const guest = await ws.server.addMember(ws.token, "guest", "gail@example.com");
    const gail = await names(await connect(guest.token));
    expect(gail).not.toContain("manage_labels");
    expect(gail).not.toContain("create_cycle");
    expect(gail).toContain("search_issues");
  });

  it("refuses a request without a key, and a key the Tracker server rejects, with 401", async () => {
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.text).toContain("Authorization: Bearer trk_");
    const unknown = await post({ authorization: "Bearer trk_not_a_key" });
    expect(unknown.status).toBe(401);
    expect(unknown.text).toContain("refused this API key");
  });

  it("refuses a session's requests that carry another key", async () => {
    const opened = await post({ authorization: `Bearer ${ws.token}` });
    expect(opened.status).toBe(200);
    expect(opened.sessionId).toBeTruthy();
    const hijack = await post(
      { authorization: `Bearer ${ws.bob.token}`, "mcp-session-id": opened.sessionId! },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    );
    expect(hijack.status).toBe(403);
    expect(hijack.text).toContain("another API key");
  });

  it("closes a session left idle, and its requests then need a new session", async () => {
    const quick = await startHttpServer({
      port: 0,
      host: "127.0.0.1",
      allowedOrigins: [],
      trackerUrl: ws.url,
      timeoutMs: 10_000,
      sessionIdleMs: 200,
    });
    try {
      const client = await connectHttp(quick.url, ws.token);
      await client.callTool({ name: "whoami", arguments: {} });
      expect(quick.sessions()).toBe(1);
      await expect.poll(() => quick.sessions(), { timeout: 3_000 }).toBe(0);
      await expect(client.listTools()).rejects.toThrow(/Unknown or closed session/);
      await client.close().catch(() => {});
    } finally {
      await quick.close();
    }
  });

  it("checks Origin against localhost and the allow list, and Host on a loopback bind (DNS rebinding)", async () => {
    const auth = { authorization: `Bearer ${ws.token}` };
    const evil = await post({ ...auth, origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    expect(evil.text).toContain("--allowed-origins");
    expect((await post({ ...auth, origin: "https://agent.example.com" })).status).toBe(200);
    expect((await post({ ...auth, origin: "http://localhost:5173" })).status).toBe(200);
    const rebound = await post({ ...auth, host: `evil.example:${new URL(http.url).port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.text).toContain("not allowed on a loopback server");
  });
});
