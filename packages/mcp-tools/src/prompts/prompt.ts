import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { CallOptions } from "@tracker/sdk";
import type { z } from "zod";
import type { ToolDeps } from "../deps.js";
import { toolFailure } from "../errors.js";

/** What a prompt's text may rely on besides the data: which tools this session offers the agent. */
export interface PromptContext {
  read: CallOptions;
  /** True when the session offers (or, with --dynamic, can turn on) the tool: a prompt names only those. */
  offers(tool: string): boolean;
}

/** A prompt: a task for the agent with the data it needs to start, fetched when the prompt is got. */
export interface PromptDefinition<A extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  /** Prompt arguments are strings; wrap them in `completable` to offer completion. */
  args: (deps: ToolDeps) => A;
  text(deps: ToolDeps, args: z.output<z.ZodObject<A>>, ctx: PromptContext): Promise<string>;
}

export function definePrompt<A extends z.ZodRawShape>(def: PromptDefinition<A>): PromptDefinition<A> {
  return def;
}

export function registerPrompt(
  server: McpServer,
  deps: ToolDeps,
  def: PromptDefinition,
  offers: (tool: string) => boolean,
) {
  return server.registerPrompt(
    def.name,
    { title: def.title, description: def.description, argsSchema: def.args(deps) },
    (async (args: Record<string, unknown>, extra: { signal: AbortSignal }) => {
      try {
        const read = { signal: extra.signal, timeoutMs: deps.timeoutMs };
        const text = await def.text(deps, args, { read, offers });
        return {
          description: def.description,
          messages: [{ role: "user", content: { type: "text", text } }],
        };
      } catch (err) {
        const failure = await toolFailure(err, deps, args as never);
        throw new McpError(
          ErrorCode.InvalidParams,
          failure.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"),
        );
      }
    }) as never,
  );
}
