import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "../deps.js";
import { toolFailure } from "../errors.js";
import { formatInput, jsonResult, textResult } from "../format.js";

export const listTeamsInput = { format: formatInput };

export function registerListTeamsTool(server: McpServer, deps: ToolDeps) {
  return server.registerTool(
    "list_teams",
    {
      title: "List teams",
      description:
        "List the teams the key's owner belongs to, with each team's key (as used in `ENG-123`) and its workflow state " +
        "names in order, which are the values `state` accepts.",
      inputSchema: listTeamsInput,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (input) => {
      try {
        const teams = await deps.tracker.teams.list();
        if (input.format === "json") return jsonResult(teams);
        if (teams.length === 0) return textResult("No teams yet.");
        const lines = teams.map(
          (t) =>
            `${t.key}  ${t.name}${t.personal ? " (personal)" : ""}  states: ${t.states.map((s) => `${s.name} (${s.type})`).join(", ")}`,
        );
        return textResult(lines.join("\n"));
      } catch (err) {
        return toolFailure(err, deps);
      }
    },
  );
}
