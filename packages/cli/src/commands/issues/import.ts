import { readFileSync } from "node:fs";
import type { BodyOf } from "@tracker/sdk";
import { CommandError, type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { printJson, progress, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Create issues from JSON Lines (or a JSON array), one issue per object",
  description:
    "Each object is an issue as the API takes it (team, title, description, priority, assignee, labels,\n" +
    "state, project, cycle, estimate, dueDate, parent); --team fills in a missing team. Reads the file, or\n" +
    "standard input without one. Issues go in batches of 100 (one request each), each with an idempotency\n" +
    "key made from its lines, so running the same import again within a day creates nothing twice. Prints\n" +
    "one identifier per issue created; lines that fail are reported and the rest go on (exit 1 if any failed).",
  args: ["file?"],
  options: {
    team: {
      type: "string",
      short: "t",
      value: "KEY",
      description: "Team for objects that name none",
      complete: "teams",
    },
  },
  examples: [
    "tracker issues import issues.jsonl --team ENG",
    `echo '{"title":"From a script","priority":2}' | tracker issues import --team ENG`,
  ],
});

type IssueCreate = BodyOf<"createIssue">;

function parse(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    try {
      return JSON.parse(trimmed) as unknown[];
    } catch (err) {
      throw new UsageError(`the input is not a JSON array: ${(err as Error).message}`);
    }
  }
  return trimmed
    .split("\n")
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line !== "")
    .map(({ line, n }) => {
      try {
        return JSON.parse(line) as unknown;
      } catch (err) {
        throw new UsageError(`line ${n} is not JSON: ${(err as Error).message}`);
      }
    });
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const text = opts.file && opts.file !== "-" ? readFileSync(opts.file, "utf8") : await deps.readStdin();
  const items = parse(text);
  if (items.length === 0) throw new UsageError("nothing to import: the input has no issues");
  const bodies = items.map(
    (item) => ({ ...(opts.team ? { team: opts.team } : {}), ...(item as object) }) as IssueCreate,
  );
  const bar = progress(deps);
  // The SDK sends batches of 100, each keyed by its lines and their places (so a second run creates
  // nothing twice), and sends a batch again without a refused line, so every other line gets its issue.
  const { created, refused } = await deps.tracker.issues
    .import(bodies, {
      ...deps.call,
      onProgress: (settled, total) => bar.update(`Imported ${settled} of ${total}…`),
    })
    .finally(() => bar.done());
  for (const { index, reason } of refused.sort((a, b) => a.index - b.index))
    say(deps, `issue ${index + 1}: ${reason}`);
  const issues = created.map((c) => c.issue);
  if (opts.json) await printJson(deps, issues);
  else deps.stdout.write(issues.map((issue) => `${issue.identifier}\n`).join(""));
  if (deps.isTTY) say(deps, `Imported ${issues.length} of ${items.length} issues`);
  if (refused.length)
    throw new CommandError(
      `${refused.length} of ${items.length} issues were not imported (${refused.map((r) => r.index + 1).join(", ")})`,
    );
}
