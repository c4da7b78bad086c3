import { stripVTControlCharacters } from "node:util";
import pty from "node-pty";
import { expect } from "vitest";
import { BIN, type Session } from "./binary.js";

/**
 * After tracker exits, the shell that ran it prints this line and waits for a newline. On Linux, the
 * last kilobytes a process writes to a pseudo-terminal can be lost when the terminal's last writer
 * closes before they are read; the waiting shell keeps it open until the line shows they all were.
 */
const EXITED = /\[tracker exited (\d+)\]/;
// The shell catches Ctrl-C (a trap, which tracker does not inherit) so that it outlives a Ctrl-C meant
// for tracker and can report tracker's exit code.
const SHELL = `trap : INT; "$0" "$@"; code=$?; printf '\\n[tracker exited %d]\\n' "$code"; read -r _; exit "$code"`;

export interface Terminal {
  /** tracker's exit code, once everything it printed has been read. */
  exited: Promise<number>;
  /** The screen so far without colours and cursor moves. */
  plain(): string;
  /** The screen so far as written. */
  raw(): string;
  /** Waits for `waitFor` on the screen, then types `keys`. */
  answer(waitFor: string, keys: string): Promise<void>;
  /** Types `keys` as they are (Ctrl-C is "\x03"). */
  type(keys: string): void;
}

/** Runs the built `tracker <args>` in a real pseudo-terminal, as a person at a terminal runs it. */
export function terminal(
  s: Session,
  args: string[],
  extraEnv: Record<string, string | undefined> = {},
): Terminal {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", TERM: "xterm-256color" };
  for (const [key, value] of Object.entries(s.env(extraEnv))) if (value !== undefined) env[key] = value;
  const term = pty.spawn("/bin/sh", ["-c", SHELL, process.execPath, BIN, ...args], {
    cols: 100,
    rows: 30,
    env,
  });
  let screen = "";
  let all = "";
  let reportExit: (code: number) => void = () => {};
  const reported = new Promise<number>((resolve) => {
    reportExit = resolve;
  });
  term.onData((d) => {
    screen += d;
    all += d;
    const exit = EXITED.exec(all);
    if (exit) reportExit(Number(exit[1]));
  });
  const closed = new Promise<void>((resolve) => term.onExit(() => resolve()));
  const exited = reported.then(async (code) => {
    term.write("\n");
    await closed;
    return code;
  });
  const plain = () => stripVTControlCharacters(screen);
  return {
    exited,
    plain,
    raw: () => screen,
    type: (keys) => term.write(keys),
    async answer(waitFor: string, keys: string) {
      await expect.poll(plain, { timeout: 10_000 }).toContain(waitFor);
      screen = "";
      term.write(keys);
    },
  };
}
