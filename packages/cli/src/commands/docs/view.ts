import { type Deps, defineCommand, type Opts } from "../../command.js";
import { palette, printFields, printJson, relativeTime } from "../../output.js";
import { documentId } from "./find.js";

export const spec = defineCommand({
  summary: "Show a document (by id or exact title)",
  description:
    "Piped, it prints `field:<TAB>value` lines, then --, then the Markdown; --raw prints only the Markdown.",
  args: ["document"],
  options: { raw: { type: "boolean", description: "Print only the content, as stored" } },
  examples: ['tracker docs view "Deploy runbook"', "tracker docs view 3f2a… --raw > runbook.md"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const doc = await deps.tracker.documents.get(await documentId(deps, opts.document), deps.call);
  if (opts.json) return printJson(deps, doc);
  if (opts.raw) {
    deps.stdout.write(doc.content ?? "");
    return;
  }
  const c = palette(deps);
  if (deps.isTTY) {
    deps.stdout.write(
      `${c.bold(doc.title)} ${c.dim(`${doc.team.key} • by ${doc.creator.name} • updated ${relativeTime(doc.updatedAt)}`)}\n`,
    );
    if (doc.issues.length)
      deps.stdout.write(`Issues: ${doc.issues.map((i) => c.cyan(i.identifier)).join(", ")}\n`);
    deps.stdout.write(`\n${doc.content?.trim() || c.dim("Empty document.")}\n`);
    return;
  }
  printFields(deps, [
    ["id", doc.id],
    ["title", doc.title],
    ["team", doc.team.key],
    ["creator", doc.creator.name],
    ["issues", doc.issues.map((i) => i.identifier).join(",")],
    ["created", doc.createdAt],
    ["updated", doc.updatedAt],
  ]);
  deps.stdout.write(`--\n${doc.content ?? ""}${doc.content?.endsWith("\n") ? "" : "\n"}`);
}
