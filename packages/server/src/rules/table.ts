import { OPERATION_RULES } from "./operations.js";
import { type Action, exceptionsFor, ROLES, RULES, type Rule } from "./permissions.js";

/**
 * The role × action table: for every operation of the contract (and the variants of its input that ask
 * another action), what each kind of caller gets. Read from `RULES` and `OPERATION_RULES`, never written
 * twice: `PERMISSIONS.md` prints it, and `permissions.test.ts` calls every row with every column against a
 * real server.
 */

export const COLUMNS = [...ROLES, "non-member"] as const;
export type Column = (typeof COLUMNS)[number];

/** What a caller gets: allowed; allowed only to some (`who`), else refused; or refused. */
export type Cell =
  | { kind: "allowed"; seen: boolean; accountKey: boolean }
  | { kind: "only"; who: string[]; code: "admin_required" | "forbidden" }
  | { kind: "refused"; code: "admin_required" | "forbidden" | "workspace_forbidden" };

/** The contract's facts about an operation that the table needs. */
export interface OperationFacts {
  operationId: string;
  method: string;
  path: string;
  authenticated: boolean;
  workspaceScoped: boolean;
}

export interface Row {
  operation: OperationFacts;
  /** The input that asks the row's action, for a variant (`counts=1`); absent for the operation's own. */
  when?: string;
  action: Action;
  cells: Record<Column, Cell>;
}

export function cellFor(op: OperationFacts, action: Action, column: Column): Cell {
  const r = RULES[action] as Rule<unknown>;
  const seen = r.seen === true;
  const accountKey = r.accountKeyOnly === true;
  if (column === "non-member") {
    // Workspace resolution comes first: a workspace the key does not reach is refused whatever the action.
    const namesWorkspace = op.workspaceScoped || action === "workspace.activate";
    return op.authenticated && namesWorkspace
      ? { kind: "refused", code: "workspace_forbidden" }
      : { kind: "allowed", seen, accountKey };
  }
  if (r.roles === "anyone" || r.roles.includes(column)) return { kind: "allowed", seen, accountKey };
  const exceptions = exceptionsFor(r, column);
  if (exceptions.length) return { kind: "only", who: exceptions.map((e) => e.who), code: r.refusal };
  return { kind: "refused", code: r.refusal };
}

/** Every row: each operation of the contract, then its variant if it has one. */
export function tableRows(operations: OperationFacts[]): Row[] {
  const rows: Row[] = [];
  for (const operation of operations) {
    const rule = OPERATION_RULES[operation.operationId as keyof typeof OPERATION_RULES];
    if (!rule) throw new Error(`${operation.operationId}: no rule in rules/operations.ts`);
    const row = (action: Action, when?: string): Row => ({
      operation,
      when,
      action,
      cells: Object.fromEntries(COLUMNS.map((c) => [c, cellFor(operation, action, c)])) as Row["cells"],
    });
    rows.push(row(rule.action));
    if (rule.variant) rows.push(row(rule.variant.action, rule.variant.when));
  }
  return rows;
}

function cellText(cell: Cell, op: OperationFacts): string {
  if (cell.kind === "allowed")
    return !op.authenticated ? "✓ (no key)" : cell.accountKey ? "✓ account key" : cell.seen ? "✓ seen" : "✓";
  if (cell.kind === "only") return `${cell.who.join(", ")}; else 403 \`${cell.code}\``;
  return `403 \`${cell.code}\``;
}

/** `PERMISSIONS.md`: the table as Markdown, one row per operation and variant, in the contract's order. */
export function renderPermissions(operations: OperationFacts[]): string {
  const lines = [
    "# Permissions: role × action",
    "",
    "<!-- Generated from src/rules/permissions.ts and src/rules/operations.ts by src/rules/table.test.ts;",
    "     do not edit: change the rules, then run `npx vitest run packages/server/src/rules -u` from the root. -->",
    "",
    "Who may call each operation of `openapi.yaml`, by the caller's role in the workspace the request acts in.",
    "The rules are `RULES` in `src/rules/permissions.ts`; each operation's action is in `src/rules/operations.ts`;",
    "`src/rules/permissions.test.ts` calls every row with every column against a real server.",
    "",
    "- ✓: allowed. ✓ seen: allowed on what the caller sees (`src/rules/visibility.ts`); anything else answers",
    "  404 `not_found`, exactly as if it did not exist (others' personal spaces to everyone, teams they do not",
    "  belong to for guests).",
    "- *who*; else 403: allowed to the role only for those subjects (the comment's author, themself, ...).",
    "- non-member: a key whose owner is not a member of the workspace the request names.",
    "- kind: what the action does (read, write, admin): the access level a key or OAuth token needs for it;",
    "  below it, 403 `insufficient_access` whatever the role (`src/rules/permissions.test.ts` calls every row with",
    "  a read, a write and an admin key).",
    "- ✓ account key: allowed to account keys; a workspace key (pinned to one workspace) gets 403 `forbidden`.",
    "",
    `| operation | action | kind | ${COLUMNS.join(" | ")} |`,
    `| --- | --- | --- | ${COLUMNS.map(() => "---").join(" | ")} |`,
  ];
  for (const row of tableRows(operations)) {
    const op = row.operation;
    const name = `\`${op.operationId}\`${row.when ? ` with \`${row.when}\`` : ""}`;
    const kind = RULES[row.action].kind;
    lines.push(
      `| ${name} | \`${row.action}\` | ${kind} | ${COLUMNS.map((c) => cellText(row.cells[c], op)).join(" | ")} |`,
    );
  }
  lines.push(
    "",
    "Checked besides the table: moving a project or initiative into another workspace also needs the",
    "caller to be an admin there (`workspace.moveInto`: 403 `admin_required`; a workspace they do not",
    "belong to: 403 `workspace_forbidden`).",
    "",
  );
  return lines.join("\n");
}
