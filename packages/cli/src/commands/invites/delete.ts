import { CommandError, type Deps, defineCommand, type Opts } from "../../command.js";
import { confirmDeletion } from "../../input.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Revoke a pending invite (by id or email); its link stops working",
  args: ["invite"],
  options: {
    yes: { type: "boolean", short: "y", description: "Revoke without asking (required without a terminal)" },
  },
  examples: ["tracker invites delete ada@example.com --yes"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const invites = await deps.tracker.invites.list(deps.call);
  const lower = opts.invite.toLowerCase();
  const invite = invites.find((i) => i.id === opts.invite || i.email.toLowerCase() === lower);
  if (!invite) throw new CommandError(`no pending invite for "${opts.invite}"; see 'tracker invites list'`);
  await confirmDeletion(deps, opts.yes, `the invite for ${invite.email} (its link stops working)`);
  await deps.tracker.invites.delete(invite.id, deps.call);
  if (opts.json) return printJson(deps, { deleted: true, id: invite.id });
  say(deps, `Revoked the invite for ${invite.email}`);
}
