import type { ToolDefinition } from "./tool.js";
import { commentIssueTool } from "./tools/comment-issue.js";
import { createCycleTool } from "./tools/create-cycle.js";
import { createIssueTool } from "./tools/create-issue.js";
import { createIssuesTool } from "./tools/create-issues.js";
import { getDigestTool } from "./tools/get-digest.js";
import { getDocumentTool } from "./tools/get-document.js";
import { getInitiativeTool } from "./tools/get-initiative.js";
import { getIssueTool } from "./tools/get-issue.js";
import { getProjectTool } from "./tools/get-project.js";
import { listCyclesTool } from "./tools/list-cycles.js";
import { listInitiativesTool } from "./tools/list-initiatives.js";
import { listLabelsTool } from "./tools/list-labels.js";
import { listMembersTool } from "./tools/list-members.js";
import { listProjectsTool } from "./tools/list-projects.js";
import { listStatusUpdatesTool } from "./tools/list-status-updates.js";
import { listTeamsTool } from "./tools/list-teams.js";
import { listViewsTool } from "./tools/list-views.js";
import { listWebhooksTool } from "./tools/list-webhooks.js";
import { manageLabelsTool } from "./tools/manage-labels.js";
import { manageWebhooksTool } from "./tools/manage-webhooks.js";
import { moveIssuesTool } from "./tools/move-issues.js";
import { postStatusUpdateTool } from "./tools/post-status-update.js";
import { relateIssuesTool } from "./tools/relate-issues.js";
import { saveDocumentTool } from "./tools/save-document.js";
import { saveInitiativeTool } from "./tools/save-initiative.js";
import { saveProjectTool } from "./tools/save-project.js";
import { searchDocumentsTool } from "./tools/search-documents.js";
import { searchIssuesTool } from "./tools/search-issues.js";
import { updateIssuesTool } from "./tools/update-issues.js";
import { whoamiTool } from "./tools/whoami.js";

export interface Toolset {
  description: string;
  tools: ToolDefinition[];
}

/**
 * Tools grouped by what an agent works on, so a deployment offers only what its agents need and pays only
 * for those tools' definitions in every request.
 */
export const TOOLSETS = {
  issues: {
    description: "Search, read, create, update, comment on, relate, link and move issues",
    tools: [
      searchIssuesTool,
      getIssueTool,
      createIssueTool,
      updateIssuesTool,
      commentIssueTool,
      relateIssuesTool,
      moveIssuesTool,
    ],
  },
  context: {
    description:
      "Teams and their states, members, labels, saved views, who you are, and what happened on your issues",
    tools: [listTeamsTool, listMembersTool, listLabelsTool, listViewsTool, whoamiTool, getDigestTool],
  },
  planning: {
    description: "Projects, initiatives, cycles, status updates, and filing a plan's issues in one call",
    tools: [
      createIssuesTool,
      listProjectsTool,
      getProjectTool,
      saveProjectTool,
      listInitiativesTool,
      getInitiativeTool,
      saveInitiativeTool,
      listCyclesTool,
      createCycleTool,
      listStatusUpdatesTool,
      postStatusUpdateTool,
    ],
  },
  docs: {
    description: "Search, read, create and update documents",
    tools: [searchDocumentsTool, getDocumentTool, saveDocumentTool],
  },
  admin: {
    description:
      "Workspace-wide changes: create, rename and merge labels; outbound webhooks and their deliveries",
    tools: [manageLabelsTool, listWebhooksTool, manageWebhooksTool],
  },
} satisfies Record<string, Toolset>;

export type ToolsetName = keyof typeof TOOLSETS;

export const TOOLSET_NAMES = Object.keys(TOOLSETS) as ToolsetName[];

/** What a deployment offers when it names no toolset: the everyday work of an agent on issues. */
export const DEFAULT_TOOLSETS: ToolsetName[] = ["issues", "context"];

export const ALL_TOOLS: ToolDefinition[] = TOOLSET_NAMES.flatMap(
  (name): ToolDefinition[] => TOOLSETS[name].tools,
);

/** The toolset a tool belongs to. */
export function toolsetOf(toolName: string): ToolsetName | undefined {
  return TOOLSET_NAMES.find((set) => TOOLSETS[set].tools.some((t) => t.name === toolName));
}

export interface ToolSelection {
  /** Toolsets to offer; `undefined` means the defaults (or none when `tools` is given). */
  toolsets?: ToolsetName[] | undefined;
  /** Single tools to offer on top of the toolsets. */
  tools?: string[] | undefined;
  /** Offer only tools that change nothing. */
  readOnly?: boolean | undefined;
}

/**
 * The tools a selection offers, in toolset order. Naming only `tools` offers just those (as
 * github-mcp-server does); naming both adds them to the toolsets.
 */
export function selectTools(selection: ToolSelection): ToolDefinition[] {
  const sets = selection.toolsets ?? (selection.tools?.length ? [] : DEFAULT_TOOLSETS);
  const named = new Set(selection.tools ?? []);
  return ALL_TOOLS.filter((tool) => {
    const wanted = named.has(tool.name) || sets.includes(toolsetOf(tool.name)!);
    return wanted && (!selection.readOnly || tool.readOnly);
  });
}

/** Reads a comma-separated toolset list (`all` for every toolset); an unknown name throws with the choices. */
export function parseToolsets(value: string | undefined): ToolsetName[] | undefined {
  const names = splitList(value);
  if (names.length === 0) return undefined;
  if (names.includes("all")) return TOOLSET_NAMES;
  if (names.includes("default")) names.push(...DEFAULT_TOOLSETS);
  const unknown = names.filter((n) => n !== "default" && !(n in TOOLSETS));
  if (unknown.length)
    throw new Error(
      `Unknown toolset ${unknown.join(", ")}; choose from: all, default, ${TOOLSET_NAMES.join(", ")}`,
    );
  return TOOLSET_NAMES.filter((n) => names.includes(n));
}

/** Reads a comma-separated tool list; an unknown name throws with the choices. */
export function parseTools(value: string | undefined): string[] | undefined {
  const names = splitList(value);
  if (names.length === 0) return undefined;
  const known = new Set(ALL_TOOLS.map((t) => t.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length)
    throw new Error(`Unknown tool ${unknown.join(", ")}; choose from: ${[...known].join(", ")}`);
  return names;
}

function splitList(value: string | undefined): string[] {
  return [
    ...new Set(
      (value ?? "")
        .split(",")
        .map((n) => n.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}
