import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createTracker } from "@tracker/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, runBinary, useSession } from "../../test/binary.js";

// Completion in real shells: each script asks the built binary (`tracker __complete`) what to offer, so
// a `tracker` on the PATH runs it against the test's server.
const s = useSession();
let env: NodeJS.ProcessEnv;

const installed = (shell: string) => spawnSync(shell, ["--version"]).status === 0;
const zshInstalled = installed("zsh");
const fishInstalled = installed("fish");
const missingShells = [zshInstalled ? "" : "zsh", fishInstalled ? "" : "fish"].filter(Boolean);
// The reporter lists no skipped test by name: one line says which checks did not run, and why.
if (missingShells.length)
  console.log(
    `Skipped: ${missingShells.map((shell) => `${shell} completion checks (${shell} not installed)`).join("; ")}`,
  );

beforeAll(async () => {
  const bin = path.join(s.configHome, "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, "tracker"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(path.join(bin, "tracker"), 0o755);
  env = { ...s.env(), PATH: `${bin}:${process.env.PATH}` } as NodeJS.ProcessEnv;
  const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
  await sdk.teams.create({ key: "OPS", name: "Operations" });
  for (const name of ["bug", "backend", "ui"]) await sdk.labels.create({ name });
});

const script = async (shell: string) => {
  const result = await runBinary(["completion", shell]);
  expect(result.code).toBe(0);
  const file = path.join(s.configHome, `completion.${shell}`);
  writeFileSync(file, result.stdout);
  return file;
};

/**
 * Runs a shell without blocking: the test's server answers in this process, so a synchronous spawn
 * would leave the completion's requests unanswered.
 */
function shell(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
    });
    child.on("error", reject);
    child.on("close", () => resolve(out));
  });
}

/** What a real bash offers for `line` (ending in a space to complete a new word). */
async function bashOffers(line: string): Promise<string[]> {
  const file = await script("bash");
  const words = line.endsWith(" ") ? `${line.trim()} ''` : line;
  const out = await shell("bash", [
    "-c",
    `source ${file}; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _tracker; printf '%s\\n' "\${COMPREPLY[@]}"`,
  ]);
  return out.split("\n").filter(Boolean);
}

describe("tracker completion bash", () => {
  it("completes nouns, singular nouns' verbs, verbs after a global flag, and flags", async () => {
    expect(await bashOffers("tracker lab")).toEqual(["labels"]);
    expect(await bashOffers("tracker issues li")).toEqual(["list", "link"]);
    expect(await bashOffers("tracker issue ")).toContain("view");
    expect(await bashOffers(`tracker -w ${s.workspace.slug} issues `)).toContain("list");
    expect(await bashOffers("tracker issues list --sta")).toEqual(["--state", "--state-type"]);
    expect(await bashOffers("tracker completion ")).toEqual(["bash", "zsh", "fish"]);
  });

  it("completes the values a flag wants, never flags: fixed sets and what the server knows", async () => {
    expect(await bashOffers("tracker issues list --sort -pr")).toEqual(["-priority"]);
    expect(await bashOffers("tracker issues list --team ")).toEqual(["ENG", "OPS"]);
    expect(await bashOffers("tracker issues list --label b")).toEqual(["backend", "bug"]);
    expect(await bashOffers("tracker issues edit ENG-1 --assignee ")).toEqual(["me", s.user.email]);
    expect(await bashOffers("tracker issues list --team ENG --state In")).toEqual([
      "In Progress",
      "In Review",
    ]);
    // Free text: nothing is offered (the shell falls back to file names).
    expect(await bashOffers("tracker issues create --title ")).toEqual([]);
  });
});

describe("tracker completion zsh", () => {
  it.skipIf(!zshInstalled)(
    zshInstalled ? "offers every candidate with its description" : "skipped: zsh not installed",
    async () => {
      const file = await script("zsh");
      expect(spawnSync("zsh", ["-n", file]).status).toBe(0);
      // In a real zsh, with the completion system's `_describe` standing in to print what it is offered.
      const offers = async (words: string[]) => {
        const run = path.join(s.configHome, "zsh-run.zsh");
        writeFileSync(
          run,
          `source ${file} 2>/dev/null\n_describe() { print -rl -- "\${(@P)\${@[-1]}}" }\n` +
            `words=(${words.map((w) => `'${w}'`).join(" ")}); CURRENT=${words.length}; _tracker\n`,
        );
        return (await shell("zsh", ["-f", run])).split("\n").filter(Boolean);
      };
      expect(await offers(["tracker", "iss"])).toContain(
        "issues:List, view, create, edit, close, relate, move and delete issues",
      );
      expect(await offers(["tracker", "issue", "li"])).toEqual([
        "list:List issues, with the same filters as the app's views",
        "link:Attach a web link to an issue",
      ]);
      expect(await offers(["tracker", "issues", "list", "--sta"])).toContain(
        '--state:open (default), closed, all, or a workflow state name of --team, e.g. "In Progress"',
      );
      expect(await offers(["tracker", "issues", "list", "--team", ""])).toEqual([
        "ENG:Engineering",
        "OPS:Operations",
      ]);
    },
  );
});

describe("tracker completion fish", () => {
  it.skipIf(!fishInstalled)(
    fishInstalled ? "completes with descriptions in a real fish" : "skipped: fish not installed",
    async () => {
      const file = await script("fish");
      const offers = async (line: string) =>
        (await shell("fish", ["-c", `source ${file}; complete -C '${line}'`])).split("\n").filter(Boolean);
      expect(await offers("tracker issue cl")).toEqual([
        "close\tClose issues: move them to their team's first completed state",
      ]);
      expect(await offers("tracker issues list --label u")).toEqual(["ui\tlabel"]);
    },
  );

  it("refuses a shell it has no script for", async () => {
    expect((await runBinary(["completion", "powershell"])).code).toBe(2);
  });
});
