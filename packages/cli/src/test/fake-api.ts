import type { Tracker } from "@tracker/sdk";
import type { CliIo } from "../cli.js";

export { anIssue, fakeTracker, json, problem, type SentRequest } from "@tracker/sdk/testing";

/** Collects what a command writes. */
export function buffer(): { write(chunk: string): void; text: string } {
  return {
    text: "",
    write(chunk: string) {
      this.text += chunk;
    },
  };
}

/**
 * I/O for `runCli`, with a Tracker on the fake API whatever URL or key the command line names, and a config
 * directory that does not exist (so no login on this machine leaks in).
 */
export function testIo(tracker: Tracker, env: Record<string, string> = { TRACKER_API_KEY: "trk_test" }) {
  const stdout = buffer();
  const stderr = buffer();
  const io: CliIo = {
    stdout,
    stderr,
    isTTY: false,
    env: { XDG_CONFIG_HOME: "/nonexistent/tracker-test", ...env },
    makeTracker: () => tracker,
  };
  return { io, stdout, stderr };
}
