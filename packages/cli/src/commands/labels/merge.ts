import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Merge a label into another: its issues carry the target, and it is deleted",
  args: ["label"],
  options: { into: { type: "string", value: "LABEL", description: "The label to keep (required)" } },
  examples: ["tracker labels merge defect --into bug"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const into = await required(deps, "into", opts.into, async () => {
    const labels = await deps.tracker.labels.list({}, deps.call);
    return deps.prompt.select(
      `Merge ${opts.label} into`,
      labels
        .filter((l) => l.name.toLowerCase() !== opts.label.toLowerCase())
        .map((l) => ({ name: l.name, value: l.name })),
    );
  });
  const result = await deps.tracker.labels.merge(opts.label, { into }, deps.call);
  if (opts.json) return printJson(deps, result);
  say(
    deps,
    `Merged ${opts.label} into ${result.label.name}: ${result.moved} issue${result.moved === 1 ? "" : "s"} moved, ` +
      `${result.collapsed} already had both`,
  );
}
