import type { CallOptions } from "@tracker/sdk";
import { completeTeamKeys } from "../completions.js";
import type { ToolDeps } from "../deps.js";
import { facts, issueLines, shortTime, toIssueRow } from "../format.js";
import type { ResourceDefinition } from "./resource.js";

async function teamText(deps: ToolDeps, key: string, read: CallOptions): Promise<string> {
  const { tracker } = deps;
  const [teams, members, cycles, issues] = await Promise.all([
    tracker.teams.list(read),
    tracker.teams.members(key, read),
    tracker.cycles.list(key, read),
    tracker.issues.list(
      { team: key, stateType: ["backlog", "unstarted", "started"], sort: "-updated", limit: 20 },
      read,
    ),
  ]);
  const team = teams.find((t) => t.key.toUpperCase() === key.toUpperCase());
  const active = cycles.find((c) => c.isActive);
  const lines = [
    facts(
      `${key.toUpperCase()} ${team?.name ?? ""}`.trim(),
      team?.cyclesEnabled && `cycles of ${team.cycleLengthWeeks} weeks`,
      team && team.estimateScale !== "none" && `estimates ${team.estimateScale}`,
      !team && "not joined",
    ),
  ];
  if (team) lines.push(`States: ${team.states.map((s) => `${s.name} (${s.type})`).join(", ")}`);
  if (active)
    lines.push(
      `Active cycle: ${active.number}${active.name ? ` "${active.name}"` : ""} ${shortTime(active.startsAt)} → ${shortTime(active.endsAt)}`,
    );
  lines.push(`Members: ${members.map((m) => m.email).join(", ") || "none"}`);
  lines.push("", `Open issues, recently updated${issues.nextOffset === null ? "" : " (first 20)"}:`);
  lines.push(
    ...(issues.items.length ? issueLines(issues.items.map(toIssueRow)).map((l) => `  ${l}`) : ["  none"]),
  );
  return lines.join("\n");
}

export const teamResource: ResourceDefinition = {
  name: "team",
  title: "Team",
  description:
    "A team: workflow states, active cycle, members and recently updated open issues, e.g. tracker://teams/ENG.",
  template: "tracker://teams/{key}",
  async list(deps, read) {
    const teams = await deps.tracker.teams.list(read);
    return teams.map((t) => ({ uri: `tracker://teams/${t.key}`, name: t.key, title: t.name }));
  },
  complete: { key: (deps, typed) => completeTeamKeys(deps, typed) },
  read: (deps, { key = "" }, read) => teamText(deps, key, read),
};
