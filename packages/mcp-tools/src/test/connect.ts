import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tracker } from "@tracker/sdk";
import { createTrackerServer } from "../server.js";
import type { ToolsetName } from "../toolsets.js";

/** A real MCP client connected in memory to a tool server for `tracker`: what an agent would see. */
export async function connectClient(tracker: Tracker, toolsets?: ToolsetName[]): Promise<Client> {
  const server = createTrackerServer({ tracker }, toolsets);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

/** The text of a tool result's first content item. */
export function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((c) => c.text ?? "").join("\n");
}
