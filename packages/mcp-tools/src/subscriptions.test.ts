import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { anIssue, fakeTracker, json } from "@tracker/sdk/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningHttpServer, startHttpServer } from "./http.js";
import { connectClient, connectHttp } from "./test/connect.js";
import { useWorkspace } from "./test/workspace.js";

// resources/subscribe over Streamable HTTP: a change made through the API (another client, the SDK)
// reaches the agent as notifications/resources/updated, driven by the server's event stream.
const ws = useWorkspace();
let http: RunningHttpServer;
let client: Client;
const updated: string[] = [];

beforeAll(async () => {
  http = await startHttpServer({
    port: 0,
    host: "127.0.0.1",
    allowedOrigins: [],
    trackerUrl: ws.url,
    timeoutMs: 10_000,
  });
  client = await connectHttp(http.url, ws.token);
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updated.push(n.params.uri);
  });
});
afterAll(async () => {
  await client?.close();
  await http?.close();
});

async function waitFor(uri: string, count = 1): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (updated.filter((u) => u === uri).length < count) {
    if (Date.now() > deadline)
      throw new Error(`no notifications/resources/updated for ${uri}; got ${updated.join(", ")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("resource subscriptions", () => {
  it("tells the subscriber when an issue changes through the API, and stops after unsubscribe", async () => {
    await client.subscribeResource({ uri: "tracker://issues/ENG-3" });
    await ws.sdk.issues.update("ENG-3", { priority: 1 });
    await waitFor("tracker://issues/ENG-3");
    await ws.sdk.comments.create("ENG-3", { body: "Seen in production too." });
    await waitFor("tracker://issues/ENG-3", 2);

    await client.unsubscribeResource({ uri: "tracker://issues/ENG-3" });
    const before = updated.length;
    await ws.sdk.issues.update("ENG-3", { priority: 2 });
    await new Promise((r) => setTimeout(r, 500));
    expect(updated.length).toBe(before);
  });

  it("tells a team's and a project's subscribers when one of their issues changes", async () => {
    await client.subscribeResource({ uri: "tracker://teams/ENG" });
    await client.subscribeResource({ uri: "tracker://projects/Launch" });
    await ws.sdk.issues.update("ENG-4", { state: "In Progress" }); // ENG-4 is in Launch
    await waitFor("tracker://teams/ENG");
    await waitFor("tracker://projects/Launch");
    await ws.sdk.projects.update("Launch", { description: "The public launch." });
    await waitFor("tracker://projects/Launch", 2);
  });

  it("refuses a subscription to something that does not exist, saying what exists", async () => {
    await expect(client.subscribeResource({ uri: "tracker://teams/NOPE" })).rejects.toThrow(
      /No team NOPE\. Teams: ENG, OPS/,
    );
    await expect(client.subscribeResource({ uri: "tracker://issues/ENG-999" })).rejects.toThrow(/not_found/);
    await expect(client.subscribeResource({ uri: "https://example.com" })).rejects.toThrow(
      /tracker:\/\/issues/,
    );
  });
});

describe("resource subscriptions across a dropped event stream", () => {
  it("resume with Last-Event-ID, so a change made while the stream was down still arrives", async () => {
    const issueId = "00000000-0000-4000-8000-000000000011";
    const change = (id: string) =>
      `event: changed\nid: ${id}\ndata: ${JSON.stringify({ entity: "issue", action: "updated", id: issueId, identifier: "ENG-11", teamKey: "ENG", at: "2026-01-01T00:00:00Z" })}\n\n`;
    const streams: (string | null)[] = [];
    const { tracker } = fakeTracker((req) => {
      if (req.path === "/issues/ENG-11")
        return json(200, {
          issue: {
            ...anIssue({ id: issueId, identifier: "ENG-11" }),
            comments: [],
            subIssues: [],
            relations: [],
          },
        });
      if (req.path === "/events") {
        streams.push(req.headers.get("last-event-id"));
        // The first connection delivers one change and drops; the second delivers the one made meanwhile.
        const body = streams.length === 1 ? `retry: 10\n\n${change("41")}` : change("42");
        return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
      }
      return json(404, {});
    });
    const agent = await connectClient(tracker);
    const seen: string[] = [];
    agent.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      seen.push(n.params.uri);
    });
    await agent.subscribeResource({ uri: "tracker://issues/ENG-11" });
    await expect.poll(() => seen.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    expect(seen.slice(0, 2)).toEqual(["tracker://issues/ENG-11", "tracker://issues/ENG-11"]);
    expect(streams.slice(0, 2)).toEqual([null, "41"]);
    await agent.close();
  });
});
