import { WORKFLOW_TRIGGERS } from "@tracker/sdk";
import { CommandError, type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, printList, say } from "../../output.js";

const TRIGGERS = WORKFLOW_TRIGGERS;

export const spec = defineCommand({
  summary: "List a team's code-host workflow rules, or set and delete them",
  description:
    "A rule moves an issue mentioned by a pull request to a state when the trigger fires. --set TRIGGER=STATE\n" +
    "creates or replaces the team-wide rule (or the project's, with --project).",
  args: ["team"],
  options: {
    set: {
      type: "string",
      value: "TRIGGER=STATE",
      description: `Set a rule; triggers: ${TRIGGERS.join(", ")}`,
    },
    project: { type: "string", short: "p", value: "NAME", description: "With --set: only for this project" },
    delete: { type: "string", value: "RULE", description: "Delete a rule by id" },
  },
  examples: [
    'tracker teams workflows ENG --set "pr_merged=Done"',
    "tracker teams workflows ENG --set pr_opened='In Review' --project Launch",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const key = opts.team.toUpperCase();
  const [teams, projects] = await Promise.all([
    deps.tracker.teams.list(deps.call),
    deps.tracker.projects.list({ team: [opts.team], limit: 200 }, deps.call),
  ]);
  const team = teams.find((t) => t.key === key || t.id === opts.team);
  if (!team) throw new CommandError(`you are not in team ${key}; join it with 'tracker teams join ${key}'`);
  const data = {
    states: team.states,
    projects: projects.items,
    workflows: await deps.tracker.teams.workflows(opts.team, deps.call),
  };
  if (opts.set) {
    const [trigger, stateName] = opts.set.split(/=(.*)/s) as [string, string | undefined];
    if (!TRIGGERS.includes(trigger as (typeof TRIGGERS)[number]) || !stateName) {
      throw new CommandError(`--set needs TRIGGER=STATE with a trigger among ${TRIGGERS.join(", ")}`);
    }
    const state = data.states.find((s) => s.name.toLowerCase() === stateName.toLowerCase());
    if (!state)
      throw new CommandError(
        `no state "${stateName}" in ${opts.team.toUpperCase()}; states: ${data.states.map((s) => s.name).join(", ")}`,
      );
    let projectId: string | null = null;
    if (opts.project) {
      const project = data.projects.find(
        (p) => p.id === opts.project || p.name.toLowerCase() === opts.project!.toLowerCase(),
      );
      if (!project)
        throw new CommandError(`no project "${opts.project}" includes ${opts.team.toUpperCase()}`);
      projectId = project.id;
    }
    await deps.tracker.teams.upsertWorkflow(
      opts.team,
      { trigger: trigger as (typeof TRIGGERS)[number], targetStateId: state.id, projectId },
      deps.call,
    );
    if (deps.isTTY) say(deps, `On ${trigger}, issues move to ${state.name}`);
  }
  if (opts.delete) {
    await deps.tracker.teams.deleteWorkflow(opts.team, opts.delete, deps.call);
    if (deps.isTTY) say(deps, `Deleted rule ${opts.delete}`);
  }
  if (opts.set || opts.delete) data.workflows = await deps.tracker.teams.workflows(opts.team, deps.call);
  if (opts.json) return printJson(deps, data.workflows);
  const stateName = (id: string) => data.states.find((s) => s.id === id)?.name ?? id;
  const projectName = (id: string | null) => (id ? (data.projects.find((p) => p.id === id)?.name ?? id) : "");
  await printList(
    deps,
    opts,
    data.workflows,
    [
      { header: "TRIGGER", value: (w) => w.trigger },
      { header: "STATE", value: (w) => stateName(w.targetStateId) },
      { header: "PROJECT", value: (w) => projectName(w.projectId) },
      { header: "ID", value: (w) => w.id, style: (_, c) => c.gray },
    ],
    "No workflow rules.",
  );
}
