import type { components } from "@tracker/sdk/schema";
import { sqlOne } from "../../db/sql.js";
import { raw, type SqlFragment } from "../../db/sql-fragment.js";
import type { Change } from "../../events/record-change.js";
import type { WorkspaceScope } from "../../http/handler.js";
import type { IssueKey } from "../shared/resolve.js";
import { labelSpellings } from "./issue-refs.js";

/** What the issue writes (create, update) share: their statements' runners and their records. */

export type IssueCreateInput = components["schemas"]["IssueCreate"];
export type IssueUpdateInput = components["schemas"]["IssueUpdate"];

export const issueChange = (
  issue: Pick<IssueKey, "id" | "identifier" | "teamKey" | "teamId">,
  action: Change["action"],
) =>
  ({
    entity: "issue",
    action,
    id: issue.id,
    identifier: issue.identifier,
    teamKey: issue.teamKey,
    teamId: issue.teamId,
  }) satisfies Change;

export const labelChanges = (ids: string[]): Change[] =>
  ids.map((id) => ({ entity: "label", action: "created", id }) satisfies Change);

export const EMPTY = raw("");

/** Runs a composed statement; one round trip. */
export const run = <T>(scope: WorkspaceScope, f: SqlFragment) => sqlOne<T>(scope.em, f);
/**
 * The same as a prepared statement (see `sql`): for the hot statements of reads and creates, whose few
 * shapes cost more to plan than to run.
 */
export const runPrepared = <T>(scope: WorkspaceScope, f: SqlFragment) =>
  sqlOne<T>(scope.em, f, { prepare: true });

/**
 * Labels named by a write, validated up front (a blank name is 400) but refused only after the other
 * references, in the order the contract checks them.
 */
export function plannedLabels(names: string[] | undefined): {
  wanted?: Map<string, string>;
  error?: unknown;
} {
  if (!names?.length) return {};
  try {
    const wanted = labelSpellings(names);
    return wanted.size ? { wanted } : {};
  } catch (error) {
    return { error };
  }
}
