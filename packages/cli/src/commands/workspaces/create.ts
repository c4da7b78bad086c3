import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Create a workspace; you are its admin and it becomes your key's active one",
  description: "Needs an account key. No team is created: add one with 'tracker teams create'.",
  args: [],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "Workspace name (required)" },
    slug: {
      type: "string",
      value: "SLUG",
      description: "URL name: lowercase letters, digits, hyphens (default: from the name)",
    },
  },
  examples: ['tracker workspaces create --name "Acme Labs" --slug acme-labs'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const name = await required(deps, "name", opts.name, () => deps.prompt.input("Workspace name"));
  const body: BodyOf<"createWorkspace"> = { name };
  if (opts.slug) body.slug = opts.slug;
  const workspace = await deps.tracker.workspaces.create(body, deps.call);
  if (opts.json) return printJson(deps, workspace);
  if (deps.isTTY) say(deps, `Created workspace ${workspace.name}; it is now your active workspace`);
  deps.stdout.write(`${workspace.slug}\n`);
}
