import { execFile } from "node:child_process";
import { CommandError, type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Create and check out an issue's git branch",
  description:
    "Runs 'git switch -c <branch>' in the current repository with the issue's branch name (see\n'tracker issues branch'), or 'git switch <branch>' when the branch exists already.",
  args: ["id"],
  options: {
    base: { type: "string", value: "REF", description: "Start the new branch from REF instead of HEAD" },
  },
  examples: ["tracker issues develop ENG-123", "tracker issues develop ENG-123 --base origin/main"],
});

function git(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile("git", args, (err, _stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: number | string }) | null;
      if (e && e.code === "ENOENT") return reject(new CommandError("git is not installed (or not on PATH)"));
      resolve({ code: e ? Number(e.code ?? 1) || 1 : 0, stderr: String(stderr).trim() });
    });
  });
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const issue = await deps.tracker.issues.get(opts.id, deps.call);
  const branch = issue.branchName;
  const inRepo = await git(["rev-parse", "--git-dir"]);
  if (inRepo.code !== 0) throw new CommandError("not in a git repository: run it in your checkout");
  const exists = (await git(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`])).code === 0;
  const switched = await git(
    exists ? ["switch", branch] : ["switch", "-c", branch, ...(opts.base ? [opts.base] : [])],
  );
  if (switched.code !== 0) throw new CommandError(`git switch failed: ${switched.stderr}`);
  if (opts.json)
    return printJson(deps, { identifier: issue.identifier, branchName: branch, created: !exists });
  say(deps, exists ? `Switched to ${branch}` : `Created and switched to ${branch}`);
  deps.stdout.write(`${branch}\n`);
}
