import type { BodyOf } from "@tracker/sdk";
import { MEMBER_ROLES } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, oneOf, UsageError } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  name: "invites create",
  summary: "Invite someone to the workspace and print the invite link",
  args: [],
  options: {
    email: { type: "string", short: "e", value: "EMAIL", description: "Who to invite (required)" },
    role: { type: "string", short: "r", value: "ROLE", description: "admin, member (default) or guest" },
  },
  examples: [
    "tracker invites create --email ada@example.com",
    "tracker invites create -e bob@example.com --role guest",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (!opts.email) throw new UsageError("--email is required");
  const body: BodyOf<"createInvite"> = { email: opts.email };
  if (opts.role) body.role = oneOf("role", [opts.role], MEMBER_ROLES)[0];
  const invite = await deps.tracker.invites.create(body);
  if (opts.json) return printJson(deps, invite);
  if (deps.isTTY)
    say(deps, `Invited ${invite.email} as ${invite.role}. Send them this link; it is shown only once:`);
  deps.stdout.write(`${invite.url}\n`);
}
