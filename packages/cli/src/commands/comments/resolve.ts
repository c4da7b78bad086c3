import { CommandError, type Deps } from "../../command.js";

/**
 * A comment of an issue by id, by the first characters of its id (as `comments list` shows them), or
 * `last` for the caller's most recent comment, as gh's `--edit-last`.
 */
export async function findComment(deps: Deps, issue: string, ref: string) {
  const comments = await deps.tracker.comments.list(issue, deps.call);
  if (ref === "last") {
    const me = (await deps.tracker.users.list(deps.call)).find((u) => u.isMe);
    const mine = comments.filter((c) => c.author.id === me?.id);
    const last = mine[mine.length - 1];
    if (!last) throw new CommandError(`you have not commented on ${issue.toUpperCase()}`);
    return last;
  }
  const matches = comments.filter((c) => c.id === ref || (ref.length >= 4 && c.id.startsWith(ref)));
  if (matches.length !== 1) {
    throw new CommandError(
      `${matches.length ? "several comments start with" : "no comment"} "${ref}" on ${issue.toUpperCase()}; ` +
        "see 'tracker comments list'",
    );
  }
  return matches[0]!;
}
