import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { printJson, say } from "../../output.js";
import { pickTeam } from "../../resolve.js";

export const spec = defineCommand({
  summary: "Move a project onto another team, or with its issues to another workspace",
  description:
    "Without --workspace the project and its issues move onto --team in this workspace. With --workspace\n" +
    "everything moves there, into --team of that workspace. Admins only. Prints the new identifiers.",
  args: ["project"],
  options: {
    team: {
      type: "string",
      short: "t",
      value: "KEY",
      description: "Target team key or id (required)",
      complete: "teams",
    },
    toWorkspace: { type: "string", value: "WS", description: "Target workspace slug, name or id" },
  },
  examples: [
    "tracker projects move Launch --team OPS",
    "tracker projects move Launch --to-workspace acme-labs --team LAB",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const team = await required(deps, "team", opts.team, () => pickTeam(deps, "Move onto team"));
  const moved = await deps.tracker.projects.move(
    opts.project,
    { team, ...(opts.toWorkspace ? { workspace: opts.toWorkspace } : {}) },
    deps.call,
  );
  if (opts.json) return printJson(deps, moved);
  // `moved` is free-form in the contract; the reference server reports the identifiers as {from, to}.
  const report = moved as { identifiers?: { from: string; to: string }[]; teamKey?: string };
  say(
    deps,
    `Moved ${opts.project} onto ${report.teamKey ?? team}${opts.toWorkspace ? ` in ${opts.toWorkspace}` : ""}`,
  );
  for (const id of report.identifiers ?? []) deps.stdout.write(`${id.from}\t${id.to}\n`);
}
