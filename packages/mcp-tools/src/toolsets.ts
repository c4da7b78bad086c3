import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "./deps.js";
import { registerAddCommentTool } from "./tools/add-comment.js";
import { registerCreateIssueTool } from "./tools/create-issue.js";
import { registerGetIssueTool } from "./tools/get-issue.js";
import { registerListTeamsTool } from "./tools/list-teams.js";
import { registerListUsersTool } from "./tools/list-users.js";
import { registerMoveIssuesTool } from "./tools/move-issues.js";
import { registerSearchIssuesTool } from "./tools/search-issues.js";
import { registerUpdateIssueTool } from "./tools/update-issue.js";
import { registerWhoamiTool } from "./tools/whoami.js";

type Register = (server: McpServer, deps: ToolDeps) => RegisteredTool;

/** Tools grouped so a deployment offers only what its agents need (`TRACKER_TOOLSETS=issues,teams`). */
export const TOOLSETS = {
  issues: {
    description: "Search, read, create, update, comment on and move issues",
    tools: [
      registerSearchIssuesTool,
      registerGetIssueTool,
      registerCreateIssueTool,
      registerUpdateIssueTool,
      registerAddCommentTool,
      registerMoveIssuesTool,
    ],
  },
  teams: {
    description: "List teams and their workflow states",
    tools: [registerListTeamsTool],
  },
  workspace: {
    description: "The workspace's users, and whose key this is",
    tools: [registerListUsersTool, registerWhoamiTool],
  },
} satisfies Record<string, { description: string; tools: Register[] }>;

export type ToolsetName = keyof typeof TOOLSETS;

export const TOOLSET_NAMES = Object.keys(TOOLSETS) as ToolsetName[];

/**
 * Reads `TRACKER_TOOLSETS` (comma-separated; unset, empty or `all` means every toolset). An unknown name
 * throws, so a typo fails at start-up rather than silently hiding tools.
 */
export function parseToolsets(value: string | undefined): ToolsetName[] {
  const names = (value ?? "")
    .split(",")
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0 || names.includes("all")) return TOOLSET_NAMES;
  const unknown = names.filter((n) => !(n in TOOLSETS));
  if (unknown.length) {
    throw new Error(
      `Unknown toolset ${unknown.join(", ")} in TRACKER_TOOLSETS; choose from: all, ${TOOLSET_NAMES.join(", ")}`,
    );
  }
  return [...new Set(names)] as ToolsetName[];
}

export function registerToolsets(server: McpServer, deps: ToolDeps, names: ToolsetName[]): void {
  for (const name of names) for (const register of TOOLSETS[name].tools) register(server, deps);
}
