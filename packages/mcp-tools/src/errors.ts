import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { TrackerError, TrackerNetworkError, TrackerTimeoutError } from "@tracker/sdk";
import type { ToolDeps } from "./deps.js";

/** What the failed call named, so the message can point at the right fix. */
export interface FailureContext {
  team?: string | string[] | undefined;
  identifier?: string | undefined;
  state?: string | undefined;
  assignee?: string | null | undefined;
  project?: string | null | undefined;
  initiative?: string | null | undefined;
  label?: string | undefined;
  document?: string | undefined;
}

/** How the failed call wrote, so a failure whose outcome is unknown can say how to retry safely. */
export interface WriteState {
  /** A write was sent (it may have acted even though no answer came back). */
  sent: boolean;
  /** The key its writes carried. */
  idempotencyKey: string;
  /** The tool takes `idempotencyKey`, so the agent can send the same key again. */
  keyInput: boolean;
}

/**
 * A refusal the tool server decides itself (bad combination of arguments, nothing to change, a name that
 * matches nothing). Its message is shown as is, so it must say how to recover.
 */
export class ToolRefusal extends Error {
  override name = "ToolRefusal";
}

const TEAM_OF_IDENTIFIER = /^([A-Za-z][A-Za-z0-9]*)-\d+$/;

/** The team an identifier like `ENG-123` belongs to (a moved issue's old key still names its old team). */
export function teamOfIdentifier(identifier: string | undefined): string | undefined {
  return identifier?.match(TEAM_OF_IDENTIFIER)?.[1]?.toUpperCase();
}

/** At most `max` names, quoted, then how many more. */
export function nameList(names: string[], max = 30): string {
  const shown = names.slice(0, max).map((n) => `"${n}"`);
  if (names.length > max) shown.push(`… ${names.length - max} more`);
  return shown.join(", ") || "(none)";
}

function firstTeam(team: FailureContext["team"]): string | undefined {
  return Array.isArray(team) ? team[0] : team;
}

async function stateHint(deps: ToolDeps, ctx: FailureContext): Promise<string | undefined> {
  const teamKey = (firstTeam(ctx.team) ?? teamOfIdentifier(ctx.identifier))?.toUpperCase();
  if (!teamKey) return "A state name belongs to a team: pass `team` (e.g. ENG) with `state`.";
  const teams = await deps.tracker.teams.list({ timeoutMs: deps.timeoutMs });
  const team = teams.find((t) => t.key.toUpperCase() === teamKey || t.id === firstTeam(ctx.team));
  if (!team) return undefined;
  return `Valid states for ${team.key}: ${team.states.map((s) => `"${s.name}"`).join(", ")}.`;
}

// The contract's not_found details read `No <kind> "<ref>" in this workspace.`: the kind says which
// reference of the call to help with.
const NOT_FOUND_KIND =
  /\bNo (team|project|initiative|label|issue|member|document|cycle|saved view|comment)\b/i;

async function notFoundHints(deps: ToolDeps, ctx: FailureContext, detail: string): Promise<string[]> {
  const kind = NOT_FOUND_KIND.exec(detail)?.[1]?.toLowerCase();
  const about = (k: string, named: unknown) => (kind ? kind === k : named !== undefined && named !== null);
  const opts = { timeoutMs: deps.timeoutMs };
  const hints: string[] = [];
  if (about("team", ctx.team)) {
    const teams = await deps.tracker.teams.listAll(opts);
    hints.push(`Team keys you can use: ${teams.map((t) => t.key).join(", ") || "(none)"}.`);
  }
  if (about("project", ctx.project)) {
    const page = await deps.tracker.projects.list({ sort: "name", limit: 50 }, opts);
    hints.push(`Projects: ${nameList(page.items.map((p) => p.name))}.`);
  }
  if (about("initiative", ctx.initiative)) {
    const page = await deps.tracker.initiatives.list({ sort: "name", limit: 50 }, opts);
    hints.push(`Initiatives: ${nameList(page.items.map((i) => i.name))}.`);
  }
  if (about("label", ctx.label)) {
    const labels = await deps.tracker.labels.list({}, opts);
    hints.push(
      `Labels: ${nameList(
        labels.map((l) => l.name),
        50,
      )}.`,
    );
  }
  if (about("issue", ctx.identifier))
    hints.push(
      "Check the identifier (like ENG-123); search_issues with `query` finds issues by their words.",
    );
  if (about("member", ctx.assignee)) hints.push("list_members shows who can be named: an email, or `me`.");
  if (about("document", ctx.document)) hints.push("search_documents finds documents and their ids.");
  if (kind === "cycle")
    hints.push("list_cycles shows the team's cycle numbers; `current` names the active one.");
  if (kind === "comment") hints.push("get_issue shows each comment with its id.");
  return hints;
}

async function trackerErrorMessage(err: TrackerError, deps: ToolDeps, ctx: FailureContext): Promise<string> {
  const lines = [`${err.code}: ${err.detail || err.title}`];
  for (const field of err.errors)
    if (field.message !== err.detail) lines.push(`  ${field.path}: ${field.message}`);
  // Lookups for a better hint must never hide the original failure.
  const tryHint = async <T>(fn: () => Promise<T>): Promise<T | undefined> => fn().catch(() => undefined);
  switch (err.code) {
    case "unauthenticated":
      lines.push(
        "The API key is missing or was rejected: set TRACKER_API_KEY (stdio) or send `Authorization: Bearer trk_…` (HTTP) with a valid key. Retrying will not help.",
      );
      break;
    case "workspace_required":
      lines.push(
        `The key reaches several workspaces and none is chosen. Set TRACKER_WORKSPACE to one of: ${err.workspaces
          .map((w) => `${w.slug} (${w.name})`)
          .join(", ")}.`,
      );
      break;
    case "workspace_forbidden":
      lines.push(
        "The key cannot act in that workspace. Check TRACKER_WORKSPACE, or use a key of that workspace.",
      );
      break;
    case "forbidden":
    case "admin_required":
      lines.push("The key's owner is not allowed to do this; retrying will not help. Ask a workspace admin.");
      break;
    case "rate_limited":
      lines.push("Too many requests. Wait a minute, then retry.");
      break;
    case "label_name_taken":
      lines.push(
        "Another label has that name: merge into it (manage_labels action `merge`) instead of renaming.",
      );
      break;
    case "idempotency_key_reused":
      lines.push(
        "That idempotencyKey was already used for a different request. Use a new key (or none) for a new request.",
      );
      break;
    case "idempotency_in_progress":
      lines.push(
        "The first request with this idempotencyKey is still running: call again in a second with the same key.",
      );
      break;
    case "invalid_request": {
      const aboutState =
        ctx.state !== undefined &&
        (err.errors.some((e) => /state/i.test(e.path) || /state/i.test(e.message)) ||
          /\bstate\b/i.test(err.detail));
      if (aboutState && !/States: /.test(err.detail)) {
        const hint = await tryHint(() => stateHint(deps, ctx));
        if (hint) lines.push(hint);
      }
      break;
    }
    case "not_found":
      lines.push(...((await tryHint(() => notFoundHints(deps, ctx, err.detail))) ?? []));
      break;
    case "internal_error":
    case "service_unavailable":
      lines.push(`The server failed (request ${err.requestId ?? "unknown"}). Retry later.`);
      break;
  }
  return lines.join("\n");
}

// Failures after which a write may or may not have acted.
function outcomeUnknown(err: unknown): boolean {
  return (
    err instanceof TrackerTimeoutError ||
    err instanceof TrackerNetworkError ||
    (err instanceof TrackerError && err.status >= 500)
  );
}

function retryAdvice(write: WriteState | undefined, err: unknown): string | undefined {
  if (!write?.sent || !outcomeUnknown(err)) return undefined;
  return write.keyInput
    ? `The write may or may not have happened. Call again with idempotencyKey "${write.idempotencyKey}": it answers the first result without acting twice.`
    : "The write may or may not have happened: read the object back before retrying.";
}

/**
 * Turns anything a tool threw into a tool result with `isError`, worded so an agent knows what to do next
 * (the valid state names, the teams to choose from, the key to retry with). Never a stack trace.
 */
export async function toolFailure(
  err: unknown,
  deps: ToolDeps,
  ctx: FailureContext = {},
  write?: WriteState,
): Promise<CallToolResult> {
  let text: string;
  if (err instanceof ToolRefusal) text = err.message;
  else if (err instanceof TrackerError) text = await trackerErrorMessage(err, deps, ctx);
  else if (err instanceof TrackerTimeoutError) {
    text = `${err.message}\nThe Tracker server did not answer in time. Reads are safe to retry.`;
  } else if (err instanceof TrackerNetworkError) {
    text = `${err.message}\nCheck TRACKER_URL and that the Tracker server is running, then retry.`;
  } else if (err instanceof Error && err.name === "AbortError") {
    text = "The call was cancelled.";
  } else text = `Unexpected error: ${err instanceof Error ? err.message : String(err)}`;
  const advice = retryAdvice(write, err);
  if (advice) text += `\n${advice}`;
  return { isError: true, content: [{ type: "text", text }] };
}

/** One line for a failure inside a tool that goes on with the rest of its work. */
export function briefError(err: unknown): string {
  if (err instanceof TrackerError) return `${err.code}: ${err.detail || err.title}`;
  return err instanceof Error ? err.message : String(err);
}
