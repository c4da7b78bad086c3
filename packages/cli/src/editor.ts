import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CommandError, type Deps, UsageError } from "./command.js";

/** The editor people chose, as gh and git pick it: `$VISUAL`, else `$EDITOR`, else `vi`. */
export function editorCommand(env: Record<string, string | undefined>): string {
  return env.VISUAL || env.EDITOR || "vi";
}

/**
 * Opens `initial` in the person's editor on the terminal and answers what they saved (a Markdown file, so
 * editors colour it). Needs a terminal; an editor that fails or saves nothing is reported, never sent.
 */
export async function editText(deps: Deps, what: string, initial = ""): Promise<string> {
  if (!deps.canPrompt) throw new UsageError(`--editor needs a terminal to edit ${what} in`);
  const dir = mkdtempSync(path.join(tmpdir(), "tracker-edit-"));
  const file = path.join(dir, "body.md");
  try {
    writeFileSync(file, initial, { mode: 0o600 });
    const editor = editorCommand(deps.env);
    // Through the shell, so an editor with arguments (`code --wait`) works as it does for git.
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn("sh", ["-c", `${editor} "$1"`, "sh", file], {
        stdio: "inherit",
        env: deps.env as NodeJS.ProcessEnv,
      });
      child.on("error", reject);
      child.on("close", resolve);
    });
    if (code !== 0) throw new CommandError(`${editor} exited with ${code}; nothing was sent`);
    const text = readFileSync(file, "utf8").replace(/\s+$/, "");
    if (text === "") throw new CommandError(`${what} is empty; nothing was sent`);
    return text;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
