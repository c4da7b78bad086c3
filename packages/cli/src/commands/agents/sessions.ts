import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList, relativeTime } from "../../output.js";

export const spec = defineCommand({
  summary: "List agent sessions: an issue's, or your own",
  description:
    "Without --issue: the sessions of the agent you call as, or those you opened by delegating or mentioning.",
  args: [],
  options: {
    issue: { type: "string", value: "ID", description: "Only the sessions on this issue (ENG-1)" },
  },
  examples: ["tracker agents sessions", "tracker agents sessions --issue ENG-1"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const sessions = await deps.tracker.agentSessions.list(
    opts.issue === undefined ? {} : { issue: opts.issue },
    deps.call,
  );
  await printList<Schemas["AgentSession"]>(deps, opts, sessions, [
    { header: "ID", value: (s) => s.id, style: (_, c) => c.gray },
    { header: "ISSUE", value: (s) => s.issue.identifier },
    { header: "AGENT", value: (s) => s.agent.name },
    { header: "STATE", value: (s) => s.state },
    { header: "TRIGGER", value: (s) => s.trigger },
    { header: "TITLE", value: (s) => s.issue.title, flex: true },
    {
      header: "LAST ACTIVITY",
      value: (s) => s.lastActivityAt ?? "",
      tty: (s) => relativeTime(s.lastActivityAt) || "none yet",
    },
  ]);
}
