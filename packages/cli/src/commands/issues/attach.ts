import { fileFromPath } from "@tracker/sdk/node";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { palette, printJson } from "../../output.js";

export const spec = defineCommand({
  summary: "Attach a file to an issue (a screenshot, a log); `-` reads it from standard input",
  description:
    "The file is streamed to the server, which takes its type from the bytes. Prints the stored file\nand its link (valid for an hour; `tracker issues view` gives fresh ones).",
  args: ["id", "file"],
  options: {
    name: {
      type: "string",
      value: "NAME",
      description: "The name shown (default: the file's; `stdin` for -)",
    },
    type: {
      type: "string",
      value: "TYPE",
      description: "The type you believe it is (the server checks the bytes)",
    },
  },
  examples: [
    "tracker issues attach ENG-123 shot.png",
    "npm test 2>&1 | tracker issues attach ENG-123 - --name test.log",
    "tracker issues attach ENG-123 trace.json --json url",
  ],
});

/** A size as people read it: `812 B`, `12.3 kB`, `4.1 MB`. */
export function humanSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const identifier = opts.id.toUpperCase();
  const source =
    opts.file === "-"
      ? { data: deps.stdinBytes(), filename: opts.name ?? "stdin" }
      : await fileFromPath(opts.file);
  const media = await deps.tracker.issues.attach(identifier, source.data, {
    ...deps.call,
    filename: opts.name ?? source.filename,
    ...(opts.type ? { contentType: opts.type } : {}),
  });
  if (opts.json) return printJson(deps, media);
  const c = palette(deps);
  const m = media.metadata;
  const facts = [
    m.contentType,
    m.width && m.height ? `${m.width}×${m.height}` : "",
    typeof m.size === "number" ? humanSize(m.size) : "",
  ].filter(Boolean);
  deps.stdout.write(
    `Attached ${c.bold(media.title ?? "file")} to ${c.cyan(identifier)} (${facts.join(", ")})\n`,
  );
  deps.stdout.write(`${new URL(media.url, deps.connection.baseUrl).toString()}\n`);
}
