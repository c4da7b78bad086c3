import { MEMBER_ROLES } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { printJson, say } from "../../output.js";
import { userId } from "../../resolve.js";

export const spec = defineCommand({
  summary: "Change a member's role (admins)",
  description: "The last admin cannot be demoted.",
  args: ["user", "role"],
  options: {},
  examples: ["tracker members role ada@example.com admin"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (!MEMBER_ROLES.includes(opts.role as (typeof MEMBER_ROLES)[number])) {
    throw new UsageError(`invalid role "${opts.role}"; expected one of: ${MEMBER_ROLES.join(", ")}`);
  }
  const role = opts.role as (typeof MEMBER_ROLES)[number];
  const id = await userId(deps, opts.user);
  await deps.tracker.members.update(id, { role }, deps.call);
  if (opts.json) return printJson(deps, { id, role });
  say(deps, `${opts.user} is now ${role === "admin" ? "an" : "a"} ${role}`);
}
