import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "../deps.js";
import { projectUpdatePrompt } from "./project-update.js";
import { type PromptDefinition, registerPrompt } from "./prompt.js";
import { standupPrompt } from "./standup.js";
import { triagePrompt } from "./triage.js";

export const PROMPTS = [triagePrompt, standupPrompt, projectUpdatePrompt] as PromptDefinition[];

/** Registers every prompt; `offers` tells a prompt which tools it may send the agent to. */
export function registerPrompts(server: McpServer, deps: ToolDeps, offers: (tool: string) => boolean): void {
  for (const prompt of PROMPTS) registerPrompt(server, deps, prompt, offers);
}
