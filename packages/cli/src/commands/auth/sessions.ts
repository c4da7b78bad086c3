import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList, relativeTime } from "../../output.js";

export const spec = defineCommand({
  summary: "List the browsers you are signed in from",
  description:
    "Your sessions on the web board, most recently seen first; the board's Settings, Access signs one out.\n" +
    "'tracker api POST /auth/sign-out-everywhere' signs out of all of them (your API keys keep working).",
  args: [],
  options: {},
  examples: ["tracker auth sessions", "tracker auth sessions --json"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const sessions = await deps.tracker.account.sessions(deps.call);
  await printList<Schemas["BrowserSession"]>(deps, opts, sessions, [
    { header: "ID", value: (s) => s.id, style: (_, c) => c.gray },
    { header: "BROWSER", value: (s) => s.userAgent ?? "", flex: true },
    { header: "SIGNED IN", value: (s) => s.createdAt, tty: (s) => relativeTime(s.createdAt) },
    { header: "LAST SEEN", value: (s) => s.lastSeenAt, tty: (s) => relativeTime(s.lastSeenAt) },
    { header: "EXPIRES", value: (s) => s.expiresAt, tty: (s) => relativeTime(s.expiresAt) },
  ]);
}
