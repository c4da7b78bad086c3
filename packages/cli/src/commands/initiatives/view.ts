import { type Deps, defineCommand, type Opts } from "../../command.js";
import { healthStyle, palette, printFields, printJson, printTable, progressBar } from "../../output.js";

export const spec = defineCommand({
  summary: "Show an initiative: status, health, progress, lead, target and its projects",
  args: ["initiative"],
  options: {},
  examples: ['tracker initiatives view "Q3 growth"'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const initiative = await deps.tracker.initiatives.get(opts.initiative, deps.call);
  if (opts.json) return printJson(deps, initiative);
  const c = palette(deps);
  const { progress } = initiative;
  if (deps.isTTY) deps.stdout.write(`${c.bold(initiative.name)}\n`);
  printFields(deps, [
    ...(deps.isTTY ? [] : ([["name", initiative.name]] as [string, string][])),
    ["status", initiative.status],
    [
      "health",
      deps.isTTY ? healthStyle(c, initiative.health)(initiative.health.replace("_", " ")) : initiative.health,
    ],
    [
      "progress",
      deps.isTTY
        ? `${progressBar(progress.percent)} (${progress.done} of ${progress.total} issues done${progress.excludedProjects ? `, ${progress.excludedProjects} paused or canceled projects left out` : ""})`
        : String(progress.percent),
    ],
    ["lead", deps.isTTY ? (initiative.lead?.name ?? "") : (initiative.lead?.email ?? "")],
    ["target", initiative.targetDate ?? ""],
  ]);
  if (initiative.description)
    deps.stdout.write(`${deps.isTTY ? "\n" : "--\n"}${initiative.description.trim()}\n`);
  if (initiative.projects.length && deps.isTTY) {
    deps.stdout.write(`\n${c.bold("Projects")}\n`);
    printTable(deps, initiative.projects, [
      { header: "NAME", value: (p) => p.name, flex: true },
      { header: "STATUS", value: (p) => p.status },
      {
        header: "PROGRESS",
        value: (p) => `${progressBar(p.progress.percent)} (${p.progress.done}/${p.progress.total})`,
      },
    ]);
  }
}
