import { splitWords } from "../../alias.js";
import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { say } from "../../output.js";

export const spec = defineCommand({
  summary: "Make a word stand for a command line",
  description:
    "After 'tracker alias set bugs \"issues list --label bug\"', 'tracker bugs' runs that list; words typed\n" +
    "after an alias are appended, or taken by $1, $2… where the expansion names them. An alias cannot\n" +
    "replace a command, and its expansion must start with one.",
  args: ["name", "expansion"],
  options: {},
  api: false,
  examples: [
    "tracker alias set bugs 'issues list --label bug'",
    "tracker alias set mine 'issues list --assignee me --team $1'",
    "tracker alias set iv 'issues view'",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const { commands, hiddenCommands, nounAliases, nouns } = await import("../index.js");
  const known = (word: string) =>
    word in commands || word in hiddenCommands || word in nouns || word in nounAliases;
  if (!/^[a-z][a-z0-9-]*$/.test(opts.name))
    throw new UsageError(`invalid alias "${opts.name}"; use lowercase letters, digits and dashes`);
  if (known(opts.name)) throw new UsageError(`"${opts.name}" is already a tracker command`);
  const [first] = splitWords(opts.expansion);
  if (!first || !known(first))
    throw new UsageError(
      `the expansion must start with a tracker command, e.g. "issues list"; got "${first ?? ""}"`,
    );
  const config = deps.config.read();
  const had = config.aliases?.[opts.name];
  deps.config.write({ ...config, aliases: { ...config.aliases, [opts.name]: opts.expansion } });
  say(deps, `${had ? "Changed" : "Added"} alias ${opts.name}: tracker ${opts.expansion}`);
}
