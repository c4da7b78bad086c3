import { randomUUID } from "node:crypto";
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CallOptions, Tracker } from "@tracker/sdk";
import { z } from "zod";
import type { ToolDeps } from "./deps.js";
import { type FailureContext, toolFailure, type WriteState } from "./errors.js";
import { type Trust, trustFor } from "./lockdown.js";
import { trackTool } from "./tool-list.js";

type Shape = z.ZodRawShape;
export type InputOf<S extends Shape> = z.output<z.ZodObject<S>>;

/** What a tool answers: compact text for the model, and the same facts as `structuredContent`. */
export interface ToolAnswer<O> {
  text: string;
  data: O;
  /** Set when part of the work failed (e.g. one issue of several); the text says which. */
  isError?: boolean;
}

/** What a tool's `run` gets besides its input. */
export interface ToolContext {
  tracker: Tracker;
  /** Options for every read: the MCP request's abort signal and the time limit. */
  read: CallOptions;
  /**
   * Options for the `n`th write (from 0) of this tool call: the read options plus its Idempotency-Key,
   * the agent's `idempotencyKey` (or one made for this call) for write 0, and `<key>:<n>` after it, so a
   * re-sent call replays every write it already made and makes only the missing ones.
   */
  write(n?: number): CallOptions;
  /** The key this call's writes derive from: the agent's `idempotencyKey`, or one made for this call. */
  idempotencyKey: string;
  /** Local paths may be read (stdio: the agent's machine is this one). */
  localFiles: boolean;
  /** Set in lockdown (`--lockdown`, or the request's `X-Tracker-Lockdown`): how to show untrusted text. */
  trust: Trust | undefined;
}

export interface ToolDefinition<I extends Shape = Shape, O extends Shape = Shape> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  /** Changes nothing; `--read-only` offers only these. */
  readOnly: boolean;
  /** May overwrite or remove something (MCP `destructiveHint`). */
  destructive: boolean;
  /** Calling again with the same arguments changes nothing more (MCP `idempotentHint`). */
  idempotent: boolean;
  /**
   * The least workspace role the contract lets call it: `admin` (admin only), `member` (guests refused);
   * absent for anyone. A key whose role is lower is not offered the tool.
   */
  role?: "admin" | "member";
  run(input: InputOf<I>, ctx: ToolContext): Promise<ToolAnswer<InputOf<O>>>;
  /** The references the input names, for recovery hints when the call fails. */
  about?(input: InputOf<I>): FailureContext;
}

/** Identity function that lets TypeScript infer a tool's input and output types from its shapes. */
export function defineTool<I extends Shape, O extends Shape>(
  def: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return def;
}

/** The optional input of every create tool. */
export const idempotencyKeyInput = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7E]+$/)
  .optional()
  .describe(
    "Any unique string. Re-sending a call with the same key returns its first answer, never a second write.",
  );

/** Registers `def` on `server`, acting through `deps`; the answer carries text and `structuredContent`. */
export function registerTool(server: McpServer, deps: ToolDeps, def: ToolDefinition): RegisteredTool {
  const keyInput = "idempotencyKey" in def.input;
  const handler = async (
    input: Record<string, unknown>,
    extra: { signal: AbortSignal; requestInfo?: { headers: Record<string, string | string[] | undefined> } },
  ): Promise<CallToolResult> => {
    const read: CallOptions = { signal: extra.signal, timeoutMs: deps.timeoutMs };
    const agentKey = typeof input.idempotencyKey === "string" ? input.idempotencyKey : undefined;
    const write: WriteState = { sent: false, idempotencyKey: agentKey ?? `mcp-${randomUUID()}`, keyInput };
    const ctx: ToolContext = {
      tracker: deps.tracker,
      read,
      write: (n = 0) => {
        write.sent = true;
        return { ...read, idempotencyKey: n === 0 ? write.idempotencyKey : `${write.idempotencyKey}:${n}` };
      },
      idempotencyKey: write.idempotencyKey,
      localFiles: deps.localFiles === true,
      trust: trustFor(deps.lockdown, deps.tracker, read, extra.requestInfo?.headers),
    };
    try {
      const answer = await def.run(input, ctx);
      return {
        content: [{ type: "text", text: answer.text }],
        structuredContent: answer.data as Record<string, unknown>,
        ...(answer.isError ? { isError: true } : {}),
      };
    } catch (err) {
      return toolFailure(err, deps, def.about?.(input) ?? {}, write);
    }
  };
  const registered = server.registerTool(
    def.name,
    {
      title: def.title,
      description: def.description,
      // Strict: a misspelt argument (`assignees`) is an error the agent sees, not a filter silently dropped.
      inputSchema: z.strictObject(def.input),
      outputSchema: def.output,
      annotations: {
        readOnlyHint: def.readOnly,
        destructiveHint: def.destructive,
        idempotentHint: def.idempotent,
        openWorldHint: false,
      },
    },
    handler as never,
  );
  trackTool(server, def.name, registered);
  return registered;
}
