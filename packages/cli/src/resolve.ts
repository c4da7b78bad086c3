import type { Schemas } from "@tracker/sdk";
import { CommandError, type Deps } from "./command.js";

type WorkflowState = Schemas["WorkflowState"];

/** Asks for a team on a terminal, from the teams the caller has joined. */
export async function pickTeam(deps: Deps, message = "Team"): Promise<string> {
  const teams = await deps.tracker.teams.list(deps.call);
  if (teams.length === 0)
    throw new CommandError("you are in no team yet; create one with 'tracker teams create'");
  if (teams.length === 1) return teams[0]!.key;
  return deps.prompt.select(
    message,
    teams.map((t) => ({ name: `${t.key}  ${t.name}${t.personal ? " (personal)" : ""}`, value: t.key })),
  );
}

/** The workflow states of an issue's team in position order, with the team's key. */
export async function issueTeamStates(
  deps: Deps,
  identifier: string,
): Promise<{ identifier: string; teamKey: string; states: WorkflowState[] }> {
  const page = await deps.tracker.issues.pageData(identifier, deps.call);
  const states = [...page.issue.team.states].sort((a, b) => a.position - b.position);
  return { identifier: page.issue.identifier, teamKey: page.issue.team.key, states };
}

/** The first state of a type by position (close: completed or canceled; reopen: unstarted). */
export function firstStateOfType(
  states: WorkflowState[],
  type: Schemas["StateType"],
  teamKey: string,
): WorkflowState {
  const state = states.find((s) => s.type === type);
  if (!state) {
    throw new CommandError(
      `team ${teamKey} has no ${type} state; its states: ${states.map((s) => `${s.name} (${s.type})`).join(", ")}`,
    );
  }
  return state;
}

/** A member by email, id or `me`, as the endpoints that take only a user id need it. */
export async function userId(deps: Deps, ref: string): Promise<string> {
  const users = await deps.tracker.users.list(deps.call);
  const lower = ref.toLowerCase();
  const user =
    lower === "me"
      ? users.find((u) => u.isMe)
      : users.find((u) => u.id === ref || u.email.toLowerCase() === lower || u.name.toLowerCase() === lower);
  if (!user) {
    throw new CommandError(
      `no member "${ref}" in this workspace; members:\n${users.map((u) => `  ${u.email}\t${u.name}`).join("\n")}`,
    );
  }
  return user.id;
}

/**
 * Emails by user id, for the machine-friendly cells of piped lists (the README promises emails there;
 * a `UserNameRef` carries only id and name). Read only when output is piped and not JSON.
 */
export async function emailsWhenPiped(deps: Deps, json: boolean | undefined): Promise<Map<string, string>> {
  if (deps.isTTY || json) return new Map();
  const users = await deps.tracker.users.list(deps.call);
  return new Map(users.map((u) => [u.id, u.email]));
}
