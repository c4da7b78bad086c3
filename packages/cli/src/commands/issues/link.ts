import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Attach a web link to an issue",
  args: ["id", "link"],
  options: { title: { type: "string", value: "TEXT", description: "Link text (default: the URL)" } },
  examples: ['tracker issues link ENG-12 https://example.com/spec --title "Spec"'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const link = await deps.tracker.issues.addLink(
    opts.id,
    { url: opts.link, ...(opts.title !== undefined ? { title: opts.title } : {}) },
    deps.call,
  );
  if (opts.json) return printJson(deps, link);
  if (deps.isTTY) say(deps, `Linked ${opts.id.toUpperCase()} to ${link.url}`);
  deps.stdout.write(`${link.id}\n`);
}
