import type { QueryOf, Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList, relativeTime } from "../../output.js";
import { emailsWhenPiped } from "../../resolve.js";

export const spec = defineCommand({
  summary: "List or search documents, most recently updated first",
  args: [],
  options: {
    search: {
      type: "string",
      short: "q",
      value: "TEXT",
      description: 'Full-text search: words, "a phrase", -excluded words, a or b',
    },
    team: {
      type: "string",
      short: "t",
      value: "KEY",
      description: "Only this team's documents",
      complete: "teams",
    },
    issue: { type: "string", short: "i", value: "ID", description: "Only documents linked to this issue" },
  },
  examples: [
    "tracker docs list --team ENG",
    'tracker docs list -q "deploy runbook"',
    "tracker docs list --issue ENG-12",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const query: QueryOf<"listDocuments"> = {};
  if (opts.search) query.q = opts.search;
  if (opts.team) query.team = opts.team;
  if (opts.issue) query.issue = opts.issue;
  const docs = await deps.tracker.documents.list(query, deps.call);
  const emails = await emailsWhenPiped(deps, opts.json);
  await printList<Schemas["Document"]>(
    deps,
    opts,
    docs,
    [
      { header: "ID", value: (d) => d.id, tty: (d) => d.id.slice(0, 8), style: (_, c) => c.gray },
      { header: "TITLE", value: (d) => d.title, flex: true, max: 60, style: (_, c) => c.bold },
      { header: "TEAM", value: (d) => d.team.key },
      { header: "ISSUES", value: (d) => d.issues.map((i) => i.identifier).join(","), max: 30 },
      {
        header: "BY",
        value: (d) => emails.get(d.creator.id) ?? d.creator.name,
        tty: (d) => d.creator.name,
        max: 20,
      },
      { header: "UPDATED", value: (d) => d.updatedAt, tty: (d) => relativeTime(d.updatedAt) },
    ],
    "No documents match.",
  );
}
