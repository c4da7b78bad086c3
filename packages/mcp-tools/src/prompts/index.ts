import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "../deps.js";
import { projectUpdatePrompt } from "./project-update.js";
import { type PromptDefinition, registerPrompt } from "./prompt.js";
import { standupPrompt } from "./standup.js";
import { triagePrompt } from "./triage.js";

export const PROMPTS = [triagePrompt, standupPrompt, projectUpdatePrompt] as PromptDefinition[];

export function registerPrompts(server: McpServer, deps: ToolDeps): void {
  for (const prompt of PROMPTS) registerPrompt(server, deps, prompt);
}
