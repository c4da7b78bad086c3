import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ToolDeps } from "../deps.js";
import { toolFailure } from "../errors.js";
import { jsonResult, textResult } from "../format.js";

export const moveIssuesInput = {
  identifiers: z
    .array(z.string().min(1))
    .min(1)
    .max(200)
    .describe("Identifiers of the issues to move, e.g. [`ENG-12`, `ENG-13`]."),
  team: z.string().min(1).describe("Key of the team to move them to, e.g. `OPS`."),
  format: z
    .enum(["text", "json"])
    .default("text")
    .describe("`text` (default): one line per issue. `json`: the API payload."),
};

export function registerMoveIssuesTool(server: McpServer, deps: ToolDeps) {
  return server.registerTool(
    "move_issues",
    {
      title: "Move issues to another team",
      description:
        "Move issues (`ENG-12`, …) to another team (`OPS`), all or none. Each gets a new identifier in the target team " +
        "(the old one keeps resolving), the state with the same name (else the same type), loses its cycle, and loses its " +
        "project when that project does not include the target team. Answers old → new identifiers.",
      inputSchema: moveIssuesInput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (input) => {
      try {
        const moved = await deps.tracker.issues.move({ identifiers: input.identifiers, team: input.team });
        if (input.format === "json") return jsonResult(moved);
        const lines = moved.map((m) => {
          if (m.from === m.to) return `${m.from} already in ${input.team}; left alone`;
          const notes = [
            m.droppedCycle ? "cycle dropped" : "",
            m.clearedProject ? "project cleared" : "",
          ].filter(Boolean);
          return `${m.from} → ${m.to}${notes.length ? ` (${notes.join(", ")})` : ""}`;
        });
        return textResult(lines.join("\n"));
      } catch (err) {
        return toolFailure(err, deps, { team: input.team });
      }
    },
  );
}
