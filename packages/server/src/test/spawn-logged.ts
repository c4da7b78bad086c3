import {
  type ChildProcessWithoutNullStreams,
  type SpawnOptionsWithoutStdio,
  spawn,
} from "node:child_process";

/**
 * A long-running process (a server) whose stdout and stderr are collected into one log, for tests that
 * wait for a line (`expect.poll(log)`) and then check how it exits.
 */
export function spawnLogged(
  command: string,
  args: string[],
  options: SpawnOptionsWithoutStdio,
): { child: ChildProcessWithoutNullStreams; log: () => string; exited: Promise<number | null> } {
  const child = spawn(command, args, options);
  let log = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    log += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    log += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return { child, log: () => log, exited };
}
