/**
 * Writes Markdown release notes: the issues a team finished in the last N days, grouped by label.
 *
 *   TRACKER_API_KEY=... npm run release-notes -w @tracker/examples -- --team ENG --days 7
 */
import { createTracker, type Schemas, type Tracker } from "@tracker/sdk";
import { flags, isMain, runMain } from "./cli-args.js";

export async function releaseNotes(
  tracker: Tracker,
  team: string,
  days: number,
  now = new Date(),
): Promise<string> {
  const since = new Date(now.getTime() - days * 86_400_000);
  const done: Schemas["Issue"][] = [];
  // Most recently updated first: once updates are older than the window, nothing later can be in it.
  for await (const issue of tracker.issues.iterate({ team, stateType: ["completed"], sort: "-updated" })) {
    if (new Date(issue.updatedAt) < since) break;
    if (issue.completedAt && new Date(issue.completedAt) >= since) done.push(issue);
  }
  if (done.length === 0) return `# ${team}: nothing finished in the last ${days} days\n`;

  const groups = new Map<string, Schemas["Issue"][]>();
  for (const issue of done) {
    const group = issue.labels[0] ?? "Other";
    groups.set(group, [...(groups.get(group) ?? []), issue]);
  }
  const sections = [...groups.entries()]
    .sort(([a], [b]) => (a === "Other" ? 1 : b === "Other" ? -1 : a.localeCompare(b)))
    .map(([label, issues]) => {
      const lines = issues.map(
        (i) => `- ${i.title} (${i.identifier}${i.assignee ? `, ${i.assignee.name}` : ""})`,
      );
      return `## ${label}\n\n${lines.join("\n")}\n`;
    });
  return `# ${team}: ${done.length} finished since ${since.toISOString().slice(0, 10)}\n\n${sections.join("\n")}`;
}

if (isMain(import.meta.url)) {
  await runMain(async () => {
    const opts = flags(
      { team: { type: "string", required: true }, days: { type: "string" } },
      "Usage: release-notes --team <KEY> [--days 7]",
    );
    process.stdout.write(await releaseNotes(createTracker(), opts.team!, Number(opts.days ?? 7)));
  });
}
