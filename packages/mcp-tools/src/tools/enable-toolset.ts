import { z } from "zod";
import type { ToolsetRegistry } from "../dynamic.js";
import { defineTool } from "../tool.js";
import { TOOLSET_NAMES } from "../toolsets.js";

export function enableToolsetTool(registry: ToolsetRegistry) {
  return defineTool({
    name: "enable_toolset",
    title: "Enable toolset",
    description:
      "Turn on a toolset (list_toolsets shows them); its tools appear in the tool list at once. Changes nothing in Tracker.",
    input: { toolset: z.enum(TOOLSET_NAMES) },
    output: { toolset: z.string(), tools: z.array(z.string()) },
    readOnly: true,
    destructive: false,
    idempotent: true,
    async run(input) {
      const tools = registry.enable(input.toolset);
      return {
        text: tools.length
          ? `Enabled ${input.toolset}: ${tools.join(", ")}.`
          : `${input.toolset} offers no tools here (read-only mode?).`,
        data: { toolset: input.toolset, tools },
      };
    },
  });
}
