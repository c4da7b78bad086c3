import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList, relativeTime } from "../../output.js";

export const spec = defineCommand({
  summary: "List the apps you authorised through OAuth",
  description:
    "The apps and agents you approved on the consent page, with the workspace and access each may use;\n" +
    "the name is the one the app gave itself. 'tracker auth revoke-app <id>' takes one's access away.",
  args: [],
  options: {},
  examples: ["tracker auth apps"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const grants = await deps.tracker.account.apps(deps.call);
  await printList<Schemas["OAuthGrant"]>(deps, opts, grants, [
    { header: "ID", value: (g) => g.id, style: (_, c) => c.gray },
    { header: "APP", value: (g) => g.client.name ?? "", flex: true },
    { header: "WORKSPACE", value: (g) => g.workspace.slug },
    { header: "ACCESS", value: (g) => g.access },
    { header: "AUTHORISED", value: (g) => g.createdAt, tty: (g) => relativeTime(g.createdAt) },
  ]);
}
