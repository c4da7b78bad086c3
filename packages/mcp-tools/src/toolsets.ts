import type { MemberRole } from "./roles.js";
import { roleAllows } from "./roles.js";
import type { ToolDefinition } from "./tool.js";
import { archiveIssueTool } from "./tools/archive-issue.js";
import { attachFileTool } from "./tools/attach-file.js";
import { checkInboxTool } from "./tools/check-inbox.js";
import { commentIssueTool } from "./tools/comment-issue.js";
import { createCycleTool } from "./tools/create-cycle.js";
import { createIssueTool } from "./tools/create-issue.js";
import { createIssuesTool } from "./tools/create-issues.js";
import { deleteIssueTool } from "./tools/delete-issue.js";
import { getDigestTool } from "./tools/get-digest.js";
import { getDocumentTool } from "./tools/get-document.js";
import { getInitiativeTool } from "./tools/get-initiative.js";
import { getIssueTool } from "./tools/get-issue.js";
import { getProjectTool } from "./tools/get-project.js";
import { inviteMemberTool } from "./tools/invite-member.js";
import { listAgentSessionsTool } from "./tools/list-agent-sessions.js";
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
import { manageTeamMembersTool } from "./tools/manage-team-members.js";
import { manageWebhooksTool } from "./tools/manage-webhooks.js";
import { manageWorkflowStatesTool } from "./tools/manage-workflow-states.js";
import { moveIssuesTool } from "./tools/move-issues.js";
import { postAgentActivityTool } from "./tools/post-agent-activity.js";
import { postStatusUpdateTool } from "./tools/post-status-update.js";
import { relateIssuesTool } from "./tools/relate-issues.js";
import { saveDocumentTool } from "./tools/save-document.js";
import { saveInitiativeTool } from "./tools/save-initiative.js";
import { saveProjectTool } from "./tools/save-project.js";
import { saveViewTool } from "./tools/save-view.js";
import { searchDocumentsTool } from "./tools/search-documents.js";
import { searchIssuesTool } from "./tools/search-issues.js";
import { updateIssuesTool } from "./tools/update-issues.js";
import { whoamiTool } from "./tools/whoami.js";

export interface Toolset {
  description: string;
  /** A few words for the server's instructions, where every byte is paid on every session. */
  short: string;
  tools: ToolDefinition[];
}

/**
 * Tools grouped by what an agent works on, so a deployment offers only what its agents need and pays only
 * for those tools' definitions in every request.
 */
export const TOOLSETS = {
  issues: {
    description: "Search, read, create, update, comment on, relate, link and move issues",
    short: "issues",
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
      "Teams and their states, members, labels, saved views (and saving one), who you are, what happened on your issues",
    short: "teams, members, labels, saved views",
    tools: [
      listTeamsTool,
      listMembersTool,
      listLabelsTool,
      listViewsTool,
      saveViewTool,
      whoamiTool,
      getDigestTool,
    ],
  },
  planning: {
    description: "Projects, initiatives, cycles, status updates, and filing a plan's issues in one call",
    short: "projects, initiatives, cycles, status updates",
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
    description: "Search, read, create and update documents; attach files to issues",
    short: "documents, file attachments",
    tools: [searchDocumentsTool, getDocumentTool, saveDocumentTool, attachFileTool],
  },
  people: {
    description: "Invite people to the workspace, add them to teams or take them off",
    short: "invites, team membership",
    tools: [inviteMemberTool, manageTeamMembersTool],
  },
  inbox: {
    description:
      "Your notifications (others' changes to your issues, mentions): list them and mark them read",
    short: "notifications",
    tools: [checkInboxTool],
  },
  agents: {
    description:
      "Agent sessions on issues delegated to agents: read what they do; as the agent, report thoughts, actions, questions and answers; as a person, reply or stop",
    short: "agent sessions",
    tools: [listAgentSessionsTool, postAgentActivityTool],
  },
  admin: {
    description:
      "Workspace-wide and lasting changes: create, rename and merge labels; a team's workflow states; outbound webhooks and their deliveries; archive, restore and delete issues",
    short: "labels, webhooks, issue archive, delete",
    tools: [
      manageLabelsTool,
      manageWorkflowStatesTool,
      listWebhooksTool,
      manageWebhooksTool,
      archiveIssueTool,
      deleteIssueTool,
    ],
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
  /** Tools never to offer, whatever else names them. */
  excludeTools?: string[] | undefined;
  /** Offer only tools that change nothing. */
  readOnly?: boolean | undefined;
  /** The key's role in its workspace, when known: tools it may not call are not offered. */
  role?: MemberRole | undefined;
}

/** Whether a tool may be offered at all under the selection's read-only switch, exclusions and role. */
export function allowedTool(tool: ToolDefinition, selection: ToolSelection): boolean {
  return (
    (!selection.readOnly || tool.readOnly) &&
    !selection.excludeTools?.includes(tool.name) &&
    roleAllows(selection.role, tool.role)
  );
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
    return wanted && allowedTool(tool, selection);
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
