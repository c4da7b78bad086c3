import type { BodyOf } from "@tracker/sdk";
import { MEMBER_ROLES } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Invite someone to the workspace and print the invite link (admins)",
  description: "The link is shown only once and works for 7 days; nobody is emailed, so pass it on yourself.",
  args: [],
  options: {
    email: { type: "string", short: "e", value: "EMAIL", description: "Who to invite (required)" },
    role: {
      type: "string",
      short: "r",
      value: "ROLE",
      description: "Role (default member)",
      choices: MEMBER_ROLES,
    },
  },
  examples: [
    "tracker invites create --email ada@example.com",
    "tracker invites create -e bob@example.com --role guest",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const email = await required(deps, "email", opts.email, () => deps.prompt.input("Email"));
  const body: BodyOf<"createInvite"> = { email };
  if (opts.role) body.role = opts.role as BodyOf<"createInvite">["role"];
  const invite = await deps.tracker.invites.create(body, deps.call);
  if (opts.json) return printJson(deps, invite);
  if (deps.isTTY)
    say(deps, `Invited ${invite.email} as ${invite.role}. Send them this link; it is shown only once:`);
  deps.stdout.write(`${invite.url}\n`);
}
