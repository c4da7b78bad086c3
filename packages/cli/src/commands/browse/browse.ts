import { boardUrl, openInBrowser } from "../../browser.js";
import { type Deps, defineCommand, type Opts } from "../../command.js";

export const spec = defineCommand({
  summary: "Open the web board: an issue, a team's board, a project or a section",
  description:
    "The target is an issue identifier (ENG-12), a team key (ENG), a section (issues, projects,\n" +
    "initiatives, documents, views) or a project name; without one, the workspace's board. --no-browser\n" +
    "prints the address instead. The browser is $BROWSER, else the system's (xdg-open, open).",
  args: ["target?"],
  options: {
    noBrowser: { type: "boolean", short: "n", description: "Print the address instead of opening it" },
  },
  examples: ["tracker browse", "tracker browse ENG-12", "tracker browse ENG", "tracker browse Launch -n"],
});

const SECTIONS = new Set(["issues", "projects", "initiatives", "documents", "views"]);

/** The board's route for what people name: an identifier, a team key, a section or a project. */
export async function routeOf(deps: Deps, target: string | undefined): Promise<string> {
  if (!target) return "";
  if (/^[A-Za-z][A-Za-z0-9]*-\d+$/.test(target)) return `issue/${target.toUpperCase()}`;
  if (SECTIONS.has(target.toLowerCase())) return target.toLowerCase();
  const teams = await deps.tracker.teams.listAll(deps.call);
  const team = teams.find((t) => t.key === target.toUpperCase());
  if (team) return `team/${team.key}/board`;
  const project = await deps.tracker.projects.get(target, deps.call);
  return `project/${project.id}`;
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await openInBrowser(deps, await boardUrl(deps, await routeOf(deps, opts.target)), opts.noBrowser);
}
