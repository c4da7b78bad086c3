import { type Deps, defineCommand, type Opts } from "../../command.js";
import { healthStyle, palette, printFields, printJson, progressBar } from "../../output.js";
import { findProject } from "./find.js";

export const spec = defineCommand({
  summary: "Show a project: status, health, progress, lead, teams, dates and members",
  args: ["project"],
  options: { web: { type: "boolean", description: "Open the project on the web board instead" } },
  examples: ['tracker projects view "Launch"', "tracker projects view Launch --json progress,health"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (opts.web) {
    const { boardUrl, openInBrowser } = await import("../../browser.js");
    const { id } = await findProject(deps, opts.project);
    return openInBrowser(deps, await boardUrl(deps, `project/${id}`), false);
  }
  const [project, members] = await Promise.all([
    findProject(deps, opts.project),
    deps.tracker.projects.members(opts.project, deps.call),
  ]);
  if (opts.json) return printJson(deps, { ...project, members });
  const c = palette(deps);
  const { progress } = project;
  if (deps.isTTY) deps.stdout.write(`${c.bold(project.name)}\n`);
  printFields(deps, [
    ...(deps.isTTY ? [] : ([["name", project.name]] as [string, string][])),
    ["status", project.status],
    [
      "health",
      deps.isTTY ? healthStyle(c, project.health)(project.health.replace("_", " ")) : project.health,
    ],
    [
      "progress",
      deps.isTTY
        ? `${progressBar(progress.percent)} (${progress.done} of ${progress.total} issues done)`
        : `${progress.percent}`,
    ],
    ["lead", project.lead?.name ?? ""],
    ["teams", project.teams.map((t) => t.key).join(",")],
    ["initiative", project.initiative?.name ?? ""],
    ["start", project.startDate ?? ""],
    ["target", project.targetDate ?? ""],
    ["members", members.map((m) => (deps.isTTY ? m.name : m.email)).join(",")],
    ["updated", project.updatedAt],
  ]);
  if (project.description) deps.stdout.write(`${deps.isTTY ? "\n" : "--\n"}${project.description.trim()}\n`);
}
