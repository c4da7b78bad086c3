import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { TrackerError, TrackerNetworkError } from "@tracker/sdk";
import type { ToolDeps } from "./deps.js";

/** What the failed call named, so the message can point at the right fix. */
export interface FailureContext {
  team?: string | undefined;
  identifier?: string | undefined;
  state?: string | undefined;
  assignee?: string | null | undefined;
  project?: string | null | undefined;
}

const TEAM_OF_IDENTIFIER = /^([A-Za-z][A-Za-z0-9]*)-\d+$/;

/** The team an identifier like `ENG-123` belongs to (a moved issue's old key still names its old team). */
export function teamOfIdentifier(identifier: string | undefined): string | undefined {
  return identifier?.match(TEAM_OF_IDENTIFIER)?.[1]?.toUpperCase();
}

async function stateHint(deps: ToolDeps, ctx: FailureContext): Promise<string | undefined> {
  const teamKey = (ctx.team ?? teamOfIdentifier(ctx.identifier))?.toUpperCase();
  if (!teamKey) return "A state name needs the team: pass `team` (e.g. ENG) with `state`.";
  const teams = await deps.tracker.teams.list();
  const team = teams.find((t) => t.key.toUpperCase() === teamKey || t.id === ctx.team);
  if (!team) return undefined;
  return `Valid states for ${team.key}: ${team.states.map((s) => `"${s.name}"`).join(", ")}.`;
}

async function notFoundHints(deps: ToolDeps, ctx: FailureContext): Promise<string[]> {
  const hints: string[] = [];
  if (ctx.team) {
    const teams = await deps.tracker.teams.listAll();
    const known = teams.some((t) => t.key.toUpperCase() === ctx.team!.toUpperCase() || t.id === ctx.team);
    if (!known) hints.push(`Team keys you can use: ${teams.map((t) => t.key).join(", ") || "(none)"}.`);
  }
  if (ctx.identifier)
    hints.push(
      "Check the identifier (like ENG-123); search_issues with `query` finds issues by their words.",
    );
  if (ctx.assignee) hints.push("list_users shows who can be named; pass an email or `me`.");
  if (ctx.project) hints.push("Check the project name, or pass its id.");
  return hints;
}

async function trackerErrorMessage(err: TrackerError, deps: ToolDeps, ctx: FailureContext): Promise<string> {
  const lines = [`${err.code}: ${err.detail || err.title}`];
  for (const field of err.errors) lines.push(`  ${field.path}: ${field.message}`);
  // Lookups for a better hint must never hide the original failure.
  const tryHint = async <T>(fn: () => Promise<T>): Promise<T | undefined> => fn().catch(() => undefined);
  switch (err.code) {
    case "unauthenticated":
      lines.push(
        "The tool server's API key is missing or was rejected. Set TRACKER_API_KEY in its environment to a valid key (trk_…) and restart it; retrying will not help.",
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
    case "invalid_request": {
      const aboutState =
        ctx.state !== undefined &&
        (err.errors.some((e) => /state/i.test(e.path) || /state/i.test(e.message)) ||
          /\bstate\b/i.test(err.detail));
      if (aboutState) {
        const hint = await tryHint(() => stateHint(deps, ctx));
        if (hint) lines.push(hint);
      }
      if (/\bteam\b/i.test(err.detail) && !ctx.team)
        lines.push("Filters by `state` or `cycle` need `team` as well.");
      break;
    }
    case "not_found":
      lines.push(...((await tryHint(() => notFoundHints(deps, ctx))) ?? []));
      break;
    case "internal_error":
    case "service_unavailable":
      lines.push(`The server failed (request ${err.requestId ?? "unknown"}). Retry later.`);
      break;
  }
  return lines.join("\n");
}

/**
 * Turns anything a tool threw into a tool result with `isError`, worded so an agent knows what to do next
 * (the valid state names, the env variable to set, the tool that finds what was missing).
 */
export async function toolFailure(
  err: unknown,
  deps: ToolDeps,
  ctx: FailureContext = {},
): Promise<CallToolResult> {
  let text: string;
  if (err instanceof TrackerError) text = await trackerErrorMessage(err, deps, ctx);
  else if (err instanceof TrackerNetworkError) {
    text = `${err.message}\nCheck TRACKER_URL in the tool server's environment and that the Tracker server is running, then retry.`;
  } else text = `Unexpected error: ${err instanceof Error ? err.message : String(err)}`;
  return { isError: true, content: [{ type: "text", text }] };
}
