import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { type Column, printList } from "../../output.js";

export const spec = defineCommand({
  summary: "List the workspace's labels, with how many issues carry each",
  description: "Counts are for admins; for others they are left out.",
  args: [],
  options: {},
  examples: ["tracker labels list", "tracker labels list --jq '.[] | select(.issueCount == 0) | .name'"],
});

type Label = Schemas["LabelListItem"];

async function labels(deps: Deps): Promise<Label[]> {
  try {
    return await deps.tracker.labels.list({ counts: "1" }, deps.call);
  } catch (err) {
    if ((err as { code?: string }).code !== "admin_required") throw err;
    return deps.tracker.labels.list({}, deps.call);
  }
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const rows = await labels(deps);
  const counted = rows.some((l) => l.issueCount !== undefined);
  const columns: Column<Label>[] = [
    { header: "NAME", value: (l) => l.name, style: (_, c) => c.magenta },
    { header: "COLOR", value: (l) => l.color },
    ...(counted
      ? ([
          { header: "ISSUES", value: (l) => String(l.issueCount ?? "") },
          { header: "OPEN", value: (l) => String(l.openIssueCount ?? "") },
        ] as Column<Label>[])
      : []),
    { header: "DESCRIPTION", value: (l) => l.description ?? "", flex: true },
  ];
  await printList(deps, opts, rows, columns, "No labels yet.");
}
