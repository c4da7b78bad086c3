import { z } from "zod";
import type { ToolsetRegistry } from "../dynamic.js";
import { defineTool } from "../tool.js";
import { TOOLSET_NAMES, TOOLSETS, type ToolsetName } from "../toolsets.js";

/** What the tool list says of the toolsets still off, one line each: how an agent learns they exist. */
export function enableToolsetDescription(off: ToolsetName[]): string {
  if (off.length === 0) return "Every toolset is on.";
  return `More tools: turn on a toolset and its tools appear at once. Off:\n${off
    .map((name) => `${name}: ${TOOLSETS[name].short}`)
    .join("\n")}`;
}

export function enableToolsetTool(registry: ToolsetRegistry, off: ToolsetName[]) {
  return defineTool({
    name: "enable_toolset",
    title: "Enable toolset",
    description: enableToolsetDescription(off),
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
          : `${input.toolset} offers no tools here (read-only mode, or your role).`,
        data: { toolset: input.toolset, tools },
      };
    },
  });
}
