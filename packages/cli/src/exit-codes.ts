import { TrackerError, TrackerNetworkError } from "@tracker/sdk";
import { UsageError } from "./command.js";

/** The documented exit codes (README.md and `tracker --help`). */
export const ExitCode = {
  /** Done. */
  ok: 0,
  /** The server refused the request (a problem answer other than `unauthenticated`). */
  refused: 1,
  /** The command line was wrong: unknown command or flag, missing or invalid value. */
  usage: 2,
  /** The server could not be reached. */
  unreachable: 3,
  /** No API key, or the server rejected it. */
  unauthenticated: 4,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODES_HELP = `EXIT CODES
  0  OK
  1  The server refused the request (prints "code: detail")
  2  Usage error: unknown command or flag, missing or invalid value
  3  Cannot reach the server (check TRACKER_URL or --url)
  4  Not authenticated (set TRACKER_API_KEY)`;

export interface ErrorContext {
  /** The command as typed, for the pointer to its help. */
  command?: string;
  write(message: string): void;
}

/** Turns what a command threw into a message on stderr and the documented exit code. */
export function reportError(err: unknown, ctx: ErrorContext): ExitCodeValue {
  if (err instanceof UsageError) {
    const help = ctx.command ? `tracker ${ctx.command} --help` : "tracker --help";
    ctx.write(`${err.message}\nRun '${help}' for usage.`);
    return ExitCode.usage;
  }
  if (err instanceof TrackerError) {
    if (err.code === "unauthenticated" || err.status === 401) {
      ctx.write(
        `unauthenticated: ${err.detail || err.title}\nSet TRACKER_API_KEY to a valid API key (keys start with trk_).`,
      );
      return ExitCode.unauthenticated;
    }
    const lines = [`${err.code}: ${err.detail || err.title}`];
    for (const field of err.errors) lines.push(`  ${field.path}: ${field.message}`);
    if (err.code === "workspace_required" && err.workspaces.length) {
      lines.push("Choose a workspace with --workspace, TRACKER_WORKSPACE or 'tracker workspaces use':");
      for (const ws of err.workspaces) lines.push(`  ${ws.slug}\t${ws.name}`);
    }
    if (err.code === "rate_limited") lines.push("Wait a moment and try again.");
    ctx.write(lines.join("\n"));
    return ExitCode.refused;
  }
  if (err instanceof TrackerNetworkError) {
    // The SDK's message already names the URL it tried and why it failed.
    ctx.write(
      `cannot reach server: ${err.message}\nCheck TRACKER_URL or --url, and that the server is running.`,
    );
    return ExitCode.unreachable;
  }
  ctx.write(`error: ${err instanceof Error ? err.message : String(err)}`);
  return ExitCode.refused;
}
