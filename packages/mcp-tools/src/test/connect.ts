import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tracker } from "@tracker/sdk";
import { DEFAULT_TIMEOUT_MS, type ToolDeps } from "../deps.js";
import { createTrackerServer, type TrackerServerOptions } from "../server.js";

const CLIENT_INFO = { name: "test-agent", version: "1.0.0" };

/** A real MCP client connected in memory to a tool server for `tracker`: what an agent would see. */
export async function connectClient(
  tracker: Tracker,
  options: TrackerServerOptions = {},
  timeoutMs = DEFAULT_TIMEOUT_MS,
  deps: Partial<Omit<ToolDeps, "tracker" | "timeoutMs">> = {},
): Promise<Client> {
  const server = createTrackerServer({ tracker, timeoutMs, ...deps }, options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client(CLIENT_INFO);
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

/** The built `tracker-mcp` (the tests run after `turbo run build`). */
export const MAIN_JS = fileURLToPath(new URL("../../dist/main.js", import.meta.url));

/**
 * A real MCP client talking to the built `tracker-mcp` binary over stdio, as a desktop agent starts it
 * (`main`: another copy of it, such as one installed from the package's tarball).
 */
export async function connectStdio(
  env: Record<string, string>,
  args: string[] = [],
  main = MAIN_JS,
): Promise<Client> {
  if (!existsSync(main))
    throw new Error(`${main} is missing: run \`npx turbo run build --filter=@tracker/mcp-tools...\``);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [main, ...args],
    // Only what the test names: the developer's own TRACKER_* variables must not leak in.
    env: { ...getDefaultEnvironment(), ...env },
    stderr: "pipe",
  });
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  return client;
}

/** A real MCP client over Streamable HTTP, sending `apiKey` as its bearer token. */
export async function connectHttp(
  url: string,
  apiKey: string,
  headers: Record<string, string> = {},
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}`, ...headers } },
  });
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  return client;
}

/** The text of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((c) => c.text ?? "").join("\n");
}

/** Tokens as the issue counts them: bytes / 4. */
export function tokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text) / 4);
}
