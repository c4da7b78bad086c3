import { UsageError } from "./command.js";

/** The documented exit codes (README.md and `tracker --help`). */
export const ExitCode = {
  /** Done. */
  ok: 0,
  /** The server refused the request (a problem answer other than `unauthenticated`), or the work failed. */
  refused: 1,
  /** The command line was wrong: unknown command or flag, missing or invalid value. */
  usage: 2,
  /** The server could not be reached, or did not answer in time. */
  unreachable: 3,
  /** No API key, or the server rejected it. */
  unauthenticated: 4,
  /** Stopped with Ctrl-C (128 + SIGINT, as shells report it). */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODES_HELP = `EXIT CODES
  0    OK
  1    The server refused the request (prints "code: detail")
  2    Usage error: unknown command or flag, missing or invalid value
  3    Cannot reach the server, or it did not answer within --timeout
  4    Not authenticated (run 'tracker auth login' or set TRACKER_API_KEY)
  130  Interrupted with Ctrl-C`;

export interface ErrorContext {
  /** The command as typed, for the pointer to its help. */
  command?: string;
  /** The server the command talked to, for messages that name it. */
  url?: string;
  /** Set when Ctrl-C was pressed: whatever failed after that failed because of it. */
  interrupted?: boolean;
  write(message: string): void;
}

// The SDK's errors, recognised by name so reporting one does not load the SDK (it is loaded anyway by
// then, but `--help` and usage errors never need it).
interface ProblemLike {
  name: "TrackerError";
  status: number;
  code: string;
  title: string;
  detail: string;
  requestId?: string;
  errors: { path: string; message: string }[];
  workspaces: { slug: string; name: string }[];
}

function named(err: unknown, name: string): boolean {
  return err instanceof Error && err.name === name;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Turns what a command threw into a message on stderr and the documented exit code. */
export function reportError(err: unknown, ctx: ErrorContext): ExitCodeValue {
  if (ctx.interrupted || named(err, "ExitPromptError") || named(err, "AbortPromptError")) {
    return ExitCode.interrupted;
  }
  if (err instanceof UsageError) {
    const help = ctx.command ? `tracker ${ctx.command} --help` : "tracker --help";
    ctx.write(`${err.message}\nRun '${help}' for usage.`);
    return ExitCode.usage;
  }
  if (named(err, "CommandError") || named(err, "CancelledError")) {
    ctx.write((err as Error).message);
    return (err as { exitCode?: ExitCodeValue }).exitCode ?? ExitCode.refused;
  }
  if (named(err, "JqError")) {
    const jq = err as Error & { compile: boolean };
    ctx.write(jq.message);
    return jq.compile ? ExitCode.usage : ExitCode.refused;
  }
  if (named(err, "TrackerTimeoutError")) {
    const timeout = err as Error & { timeoutMs?: number; attempts?: number };
    const limit =
      (typeof timeout.timeoutMs === "number" ? ` within ${seconds(timeout.timeoutMs)}` : "") +
      (timeout.attempts && timeout.attempts > 1 ? ` (${timeout.attempts} attempts)` : "");
    ctx.write(
      `timed out: ${ctx.url ?? "the server"} did not answer${limit}.\n` +
        "Check that the server is running and reachable, or allow more time with --timeout or TRACKER_TIMEOUT_MS.",
    );
    return ExitCode.unreachable;
  }
  if (named(err, "TrackerError")) {
    const problem = err as ProblemLike;
    if (problem.code === "unauthenticated" || problem.status === 401) {
      ctx.write(
        `unauthenticated: ${problem.detail || problem.title}\n` +
          "Run 'tracker auth login' with a valid key, or set TRACKER_API_KEY (keys start with trk_).",
      );
      return ExitCode.unauthenticated;
    }
    const lines = [`${problem.code}: ${problem.detail || problem.title}`];
    for (const field of problem.errors) {
      if (field.message !== problem.detail) lines.push(`  ${field.path}: ${field.message}`);
    }
    if (problem.code === "workspace_required" && problem.workspaces.length) {
      lines.push("Choose a workspace with --workspace, TRACKER_WORKSPACE or 'tracker workspaces use':");
      for (const ws of problem.workspaces) lines.push(`  ${ws.slug}\t${ws.name}`);
    }
    if (problem.code === "rate_limited") lines.push("Wait a moment and try again.");
    if (problem.code === "admin_required") lines.push("Ask an admin of the workspace to do it.");
    if (problem.status >= 500 && problem.requestId)
      lines.push(`Request id: ${problem.requestId} (quote it when reporting)`);
    ctx.write(lines.join("\n"));
    return ExitCode.refused;
  }
  if (named(err, "TrackerNetworkError")) {
    // The SDK's message already names the URL it tried and why it failed.
    ctx.write(
      `cannot reach server: ${(err as Error).message}\n` +
        "Check TRACKER_URL, --url or 'tracker auth status', and that the server is running ('tracker server start').",
    );
    return ExitCode.unreachable;
  }
  ctx.write(`error: ${err instanceof Error ? err.message : String(err)}`);
  return ExitCode.refused;
}
