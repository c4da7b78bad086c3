import type { Tracker } from "@tracker/sdk";
import type { AppContextValue } from "./app-context.js";
import { settleIssue } from "./issue-edit.js";
import { describeError } from "./session.js";

type Notify = AppContextValue["notify"];

/**
 * Archives an issue (the contract's `archiveIssue`) and says so with an Undo that restores it. The answer
 * is put everywhere the issue is shown (`settleIssue`): lists that do not ask for archived issues let it
 * go (`matches` in issue-lists.ts), its page shows it archived. Resolves true once archived.
 */
export async function archiveIssue(tracker: Tracker, notify: Notify, identifier: string): Promise<boolean> {
  try {
    settleIssue(await tracker.issues.archive(identifier));
  } catch (err) {
    notify(`${identifier} not archived: ${describeError(err)}`, "error");
    return false;
  }
  notify(`${identifier} archived`, "info", {
    label: "Undo",
    run: () => void restoreIssue(tracker, notify, identifier),
  });
  return true;
}

/** Restores an archived issue (`unarchiveIssue`): back in the lists whose filters it matches. */
export async function restoreIssue(tracker: Tracker, notify: Notify, identifier: string): Promise<boolean> {
  try {
    settleIssue(await tracker.issues.unarchive(identifier));
  } catch (err) {
    notify(`${identifier} not restored: ${describeError(err)}`, "error");
    return false;
  }
  notify(`${identifier} restored`);
  return true;
}
