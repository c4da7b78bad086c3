import { z } from "zod";
import type { ToolsetRegistry } from "../dynamic.js";
import { defineTool } from "../tool.js";

export const toolsetRow = z.object({
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  tools: z.array(z.string()),
});

export function listToolsetsTool(registry: ToolsetRegistry) {
  return defineTool({
    name: "list_toolsets",
    title: "List toolsets",
    description: "The toolsets this server can offer, what each is for, its tools, and which are enabled.",
    input: {},
    output: { toolsets: z.array(toolsetRow) },
    readOnly: true,
    destructive: false,
    idempotent: true,
    async run() {
      const toolsets = registry.status();
      const lines = toolsets.map(
        (t) => `${t.enabled ? "[on] " : "[off]"} ${t.name}: ${t.description} (${t.tools.join(", ")})`,
      );
      return { text: `${lines.join("\n")}\nenable_toolset turns one on.`, data: { toolsets } };
    },
  });
}
