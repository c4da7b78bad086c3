import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { BodyOf } from "@tracker/sdk";
import { CommandError, type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { printJson, progress, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Create issues from JSON Lines (or a JSON array), one issue per object",
  description:
    "Each object is an issue as the API takes it (team, title, description, priority, assignee, labels,\n" +
    "state, project, cycle, estimate, dueDate, parent); --team fills in a missing team. Reads the file, or\n" +
    "standard input without one. Each issue is sent with an idempotency key made from its line, so running\n" +
    "the same import again within a day creates nothing twice. Prints one identifier per issue created;\n" +
    "lines that fail are reported and the rest go on (exit 1 if any failed).",
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
  const created: unknown[] = [];
  const failed: number[] = [];
  const bar = progress(deps);
  for (const [i, item] of items.entries()) {
    bar.update(`Importing ${i + 1}/${items.length}…`);
    const body = { ...(opts.team ? { team: opts.team } : {}), ...(item as object) } as IssueCreate;
    // The same issue at the same place imported again is the same write: the server answers it without
    // acting twice. Its place is part of the key, so two identical lines still make two issues.
    const key = createHash("sha256")
      .update(`${i}\n${JSON.stringify(body)}`)
      .digest("hex");
    const idempotencyKey = `import-${key}`;
    try {
      const issue = await deps.tracker.issues.create(body, { ...deps.call, idempotencyKey });
      created.push(issue);
      if (!opts.json) {
        bar.done();
        deps.stdout.write(`${issue.identifier}\n`);
      }
    } catch (err) {
      bar.done();
      if (deps.call.signal?.aborted) throw err;
      const e = err as { code?: string; detail?: string; message: string };
      failed.push(i + 1);
      say(deps, `issue ${i + 1}: ${e.code ? `${e.code}: ${e.detail || e.message}` : e.message}`);
    }
  }
  bar.done();
  if (opts.json) await printJson(deps, created);
  if (deps.isTTY) say(deps, `Imported ${created.length} of ${items.length} issues`);
  if (failed.length)
    throw new CommandError(
      `${failed.length} of ${items.length} issues were not imported (${failed.join(", ")})`,
    );
}
