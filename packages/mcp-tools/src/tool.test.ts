import { createServer, type Server } from "node:net";
import { createTracker } from "@tracker/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, textOf } from "./test/connect.js";

// What registerTool gives every tool: a time limit on each call to the Tracker server, and the key a
// write can be re-sent with when its answer was lost.
describe("a silent server", () => {
  let silent: Server;
  let url: string;
  beforeAll(async () => {
    // Accepts connections and never answers: a hung proxy or a stalled server.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  });
  afterAll(() => {
    silent.close();
  });

  it("answers isError within the time limit instead of hanging, with the key to retry a write safely", async () => {
    const tracker = createTracker({
      baseUrl: url,
      apiKey: "trk_x",
      workspace: "",
      maxRetries: 0,
      timeoutMs: 300,
    });
    const agent = await connectClient(tracker, {}, 300);
    const started = Date.now();
    const read = await agent.callTool({ name: "search_issues", arguments: { team: "ENG" } });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(/did not answer in time/);
    const write = await agent.callTool({
      name: "create_issue",
      arguments: { team: "ENG", title: "Lost answer" },
    });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toMatch(
      /may or may not have happened\. Call again with idempotencyKey "mcp-[0-9a-f-]{36}"/,
    );
  });
});
