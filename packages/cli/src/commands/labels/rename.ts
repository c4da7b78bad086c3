import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";
import { colour } from "./create.js";

export const spec = defineCommand({
  summary: "Rename a label (saved views follow); optionally recolour it",
  description:
    "Renaming onto another label's name is refused: merge them with 'tracker labels merge' instead.",
  args: ["label", "newName"],
  options: {
    color: { type: "string", short: "c", value: "#RRGGBB", description: "New colour" },
    description: { type: "string", short: "d", value: "TEXT", description: "New description" },
  },
  examples: ["tracker labels rename defect bug"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body: BodyOf<"updateLabel"> = { name: opts.newName };
  const color = colour(opts.color);
  if (color) body.color = color;
  if (opts.description !== undefined) body.description = opts.description;
  const label = await deps.tracker.labels.update(opts.label, body, deps.call);
  if (opts.json) return printJson(deps, label);
  say(deps, `Renamed ${opts.label} to ${label.name}`);
}
