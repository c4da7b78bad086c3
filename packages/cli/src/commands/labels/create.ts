import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Create a label",
  args: ["name"],
  options: {
    color: {
      type: "string",
      short: "c",
      value: "#RRGGBB",
      description: "Colour (default: one picked from the name)",
    },
    description: { type: "string", short: "d", value: "TEXT", description: "What the label means" },
  },
  examples: ['tracker labels create bug --color "#e5484d" --description "Something is broken"'],
});

export function colour(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const hex = value.startsWith("#") ? value : `#${value}`;
  if (!/^#[0-9a-fA-F]{6}$/.test(hex))
    throw new UsageError(`invalid value "${value}" for --color; expected #RRGGBB`);
  return hex;
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body: BodyOf<"createLabel"> = { name: opts.name };
  const color = colour(opts.color);
  if (color) body.color = color;
  if (opts.description !== undefined) body.description = opts.description;
  const label = await deps.tracker.labels.create(body, deps.call);
  if (opts.json) return printJson(deps, label);
  if (deps.isTTY) say(deps, `Created label ${label.name} (${label.color})`);
  deps.stdout.write(`${label.id}\n`);
}
