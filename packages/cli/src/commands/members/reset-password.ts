import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";
import { userId } from "../../resolve.js";

export const spec = defineCommand({
  summary: "Make a link with which a member sets a new password (admins)",
  description:
    "Prints the link, which works once for 24 hours; the server also e-mails it when it has a mail server. Hand it over yourself otherwise. Only an admin of every workspace the member is in may make it.",
  args: ["user"],
  options: {},
  examples: ["tracker members reset-password bob@example.com"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const id = await userId(deps, opts.user);
  const reset = await deps.tracker.members.resetPassword(id, deps.call);
  if (opts.json) return printJson(deps, reset);
  // The link on stdout (for a pipe), what happened on stderr.
  deps.stdout.write(`${reset.url}\n`);
  say(
    deps,
    reset.emailed
      ? `E-mailed to ${opts.user}; it works once, until ${reset.expiresAt}`
      : `Give this link to ${opts.user}: it works once, until ${reset.expiresAt}`,
  );
}
