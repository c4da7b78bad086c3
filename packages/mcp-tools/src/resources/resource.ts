import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type Resource } from "@modelcontextprotocol/sdk/types.js";
import { type CallOptions, TrackerError } from "@tracker/sdk";
import type { ToolDeps } from "../deps.js";
import { toolFailure } from "../errors.js";
import { type Trust, trustFor } from "../lockdown.js";

/** The MCP error code for a resource that does not exist (the protocol's "Resource not found"). */
export const RESOURCE_NOT_FOUND = -32002;

type Variables = Record<string, string | undefined>;

/** A resource template: URI pattern, what it shows, how to list, complete and read it. */
export interface ResourceDefinition {
  name: string;
  title: string;
  description: string;
  /** RFC 6570 URI template, e.g. `tracker://issues/{identifier}`. */
  template: string;
  /** Resources to offer in `resources/list`; absent where there are too many to list. */
  list?(deps: ToolDeps, read: CallOptions): Promise<Pick<Resource, "uri" | "name" | "title">[]>;
  /** Completion of each template variable; `context` holds the variables already chosen. */
  complete: Record<string, (deps: ToolDeps, typed: string, context: Variables) => Promise<string[]>>;
  /** `trust`: set in lockdown, for a read that shows what guests or the code host wrote. */
  read(deps: ToolDeps, variables: Variables, read: CallOptions, trust?: Trust): Promise<string>;
}

function single(variables: Record<string, string | string[]>): Variables {
  return Object.fromEntries(
    Object.entries(variables).map(([k, v]) => [k, decodeURIComponent(Array.isArray(v) ? (v[0] ?? "") : v)]),
  );
}

export function registerResource(server: McpServer, deps: ToolDeps, def: ResourceDefinition) {
  const complete = Object.fromEntries(
    Object.entries(def.complete).map(([name, fn]) => [
      name,
      (typed: string, context?: { arguments?: Record<string, string> }) =>
        fn(deps, typed, context?.arguments ?? {}),
    ]),
  );
  const template = new ResourceTemplate(def.template, {
    list: def.list
      ? async (extra) => ({
          resources: (await def.list!(deps, { signal: extra.signal, timeoutMs: deps.timeoutMs })).map(
            (r) => ({
              ...r,
              mimeType: "text/markdown",
            }),
          ),
        })
      : undefined,
    complete,
  });
  return server.registerResource(
    def.name,
    template,
    { title: def.title, description: def.description, mimeType: "text/markdown" },
    async (uri, variables, extra) => {
      try {
        const read = { signal: extra.signal, timeoutMs: deps.timeoutMs };
        const trust = trustFor(deps.lockdown, deps.tracker, read, extra.requestInfo?.headers);
        const text = await def.read(deps, single(variables), read, trust);
        return { contents: [{ uri: uri.href, mimeType: "text/markdown", text }] };
      } catch (err) {
        // Resource reads answer JSON-RPC errors; the message is the same recovery text a tool would give.
        const failure = await toolFailure(err, deps);
        const text = failure.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
        const notFound = err instanceof TrackerError && err.code === "not_found";
        throw new McpError(notFound ? RESOURCE_NOT_FOUND : ErrorCode.InternalError, text, { uri: uri.href });
      }
    },
  );
}
