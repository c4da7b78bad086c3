import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList, relativeTime } from "../../output.js";

export const spec = defineCommand({
  summary: "List an issue's comments, oldest first",
  args: ["issue"],
  options: {},
  examples: ["tracker comments list ENG-123", "tracker comments list ENG-123 --jq '.[-1].body'"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const comments = await deps.tracker.comments.list(opts.issue, deps.call);
  await printList<Schemas["Comment"]>(
    deps,
    opts,
    comments,
    [
      { header: "ID", value: (c) => c.id, tty: (c) => c.id.slice(0, 8), style: (_, p) => p.gray },
      { header: "AUTHOR", value: (c) => c.author.email, tty: (c) => c.author.name },
      {
        header: "CREATED",
        value: (c) => c.createdAt,
        tty: (c) => relativeTime(c.createdAt) + (c.edited ? " (edited)" : ""),
      },
      { header: "BODY", value: (c) => c.body, tty: (c) => c.body.split("\n")[0]!, flex: true, max: 80 },
    ],
    "No comments yet.",
  );
}
