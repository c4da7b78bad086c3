import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "../deps.js";
import { documentResource } from "./document.js";
import { issueResource } from "./issue.js";
import { labelResource } from "./label.js";
import { projectResource } from "./project.js";
import { registerResource } from "./resource.js";
import { teamResource } from "./team.js";
import { teamStateResource } from "./team-state.js";

export const RESOURCES = [
  issueResource,
  projectResource,
  documentResource,
  teamResource,
  teamStateResource,
  labelResource,
];

export function registerResources(server: McpServer, deps: ToolDeps): void {
  for (const resource of RESOURCES) registerResource(server, deps, resource);
}
