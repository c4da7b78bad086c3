import type { Tracker } from "@tracker/sdk";
import type { CliIo } from "../cli.js";
import type { Deps } from "../command.js";

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

export function testDeps(tracker: Tracker, isTTY = false) {
  const stdout = buffer();
  const stderr = buffer();
  const deps: Deps = { tracker, stdout, stderr, isTTY, env: {} };
  return { deps, stdout, stderr };
}

/** I/O for `runCli`, with a Tracker on the fake API whatever URL or key the command line names. */
export function testIo(tracker: Tracker, env: Record<string, string> = { TRACKER_API_KEY: "trk_test" }) {
  const stdout = buffer();
  const stderr = buffer();
  const io: CliIo = { stdout, stderr, isTTY: false, env, makeTracker: () => tracker };
  return { io, stdout, stderr };
}
