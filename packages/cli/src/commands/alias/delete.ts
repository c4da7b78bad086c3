import { CommandError, type Deps, defineCommand, type Opts } from "../../command.js";
import { say } from "../../output.js";

export const spec = defineCommand({
  summary: "Delete an alias",
  args: ["name"],
  options: {},
  api: false,
  examples: ["tracker alias delete bugs"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const config = deps.config.read();
  const { [opts.name]: gone, ...rest } = config.aliases ?? {};
  if (gone === undefined) throw new CommandError(`no alias "${opts.name}"; see 'tracker alias list'`);
  deps.config.write({ ...config, aliases: rest });
  say(deps, `Deleted alias ${opts.name}: tracker ${gone}`);
}
