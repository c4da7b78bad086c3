import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList } from "../../output.js";

export const spec = defineCommand({
  summary: "List your aliases",
  args: [],
  options: {},
  api: false,
  examples: ["tracker alias list"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const aliases = Object.entries(deps.config.read().aliases ?? {}).map(([name, expansion]) => ({
    name,
    expansion,
  }));
  await printList(
    deps,
    opts,
    aliases,
    [
      { header: "ALIAS", value: (a) => a.name, style: (_, c) => c.cyan },
      { header: "EXPANSION", value: (a) => a.expansion, flex: true },
    ],
    "No aliases; add one with 'tracker alias set'.",
  );
}
