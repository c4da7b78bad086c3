import type { components } from "@tracker/sdk/schema";
import { raw } from "../../../db/sql-fragment.js";
import type { Change } from "../../../events/record-change.query.js";
import type { IssueKey } from "../../shared/resolve.query.js";
import { labelSpellings } from "./refs.query.js";

/** What the issue writes (create, update, batch) share: their inputs, their change records, their labels. */

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
