#!/usr/bin/env node
// The entry point stays tiny: `tracker --version` answers before anything else is loaded, and every other
// run loads the dispatcher, which loads only the command it runs.
const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "version")) {
  const { version } = await import("./version.js");
  process.stdout.write(`tracker version ${version()}\n`);
} else {
  const { runCli } = await import("./cli.js");
  // Ctrl-C aborts the request in flight (the command then exits 130); a second Ctrl-C exits at once.
  const interrupt = new AbortController();
  process.on("SIGINT", () => {
    if (interrupt.signal.aborted) process.exit(130);
    interrupt.abort(new Error("interrupted"));
  });
  const forceTTY = Boolean(process.env.TRACKER_FORCE_TTY);
  process.exitCode = await runCli(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    isTTY: process.stdout.isTTY === true || forceTTY,
    stdinTTY: process.stdin.isTTY === true,
    stderrTTY: process.stderr.isTTY === true,
    columns: process.stdout.columns || Number(process.env.COLUMNS) || (forceTTY ? 120 : 80),
    env: process.env,
    signal: interrupt.signal,
  });
  // Let stdout drain before exiting, so piped output is never cut short; nothing else may keep the process
  // alive (a dropped event stream's timers, a paused stdin).
  process.stdout.write("", () => process.exit(process.exitCode));
}
