import { spawn } from "node:child_process";
import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { BIN, useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker events tail`: a change made through the API shows up as a line, while the binary runs.
const s = useSession();

/** Starts `tracker events tail …`, resolves once it says it follows the stream, and collects its output. */
function tail(args: string[]) {
  const child = spawn(process.execPath, [BIN, "events", "tail", ...args], {
    env: { PATH: process.env.PATH, ...s.env() } as NodeJS.ProcessEnv,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  const following = new Promise<void>((resolve) => {
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      if (stderr.includes("Following")) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return { child, following, exited, out: () => ({ stdout, stderr }) };
}

describe("tracker events tail (real server, real binary)", () => {
  it("prints one tab-separated line per change made through the API, and stops after --count", async () => {
    const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token });
    const run = tail(["--count", "2"]);
    await run.following;
    const issue = await sdk.issues.create({ team: "ENG", title: "Watched" });
    await sdk.issues.update(issue.identifier, { priority: 1 });
    expect(await run.exited).toBe(0);
    const lines = run
      .out()
      .stdout.trimEnd()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(lines).toEqual([
      [expect.stringMatching(/^\d{4}-\d\d-\d\dT/), "created", "issue", "ENG-1", "ENG"],
      [expect.stringMatching(/^\d{4}-\d\d-\d\dT/), "updated", "issue", "ENG-1", "ENG"],
    ]);
    expect(run.out().stderr).toBe(`Following ${s.workspace.slug}\n`);
  });

  it("resumes after the connection drops, missing no change", async () => {
    const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token });
    const run = tail(["--count", "2"]);
    await run.following;
    await sdk.issues.update("ENG-1", { title: "Before the drop" });
    await expect.poll(() => run.out().stdout, { timeout: 10_000 }).toContain("\tupdated\tissue\tENG-1\t");
    s.server.running.server.closeAllConnections();
    // Made while the CLI is reconnecting: it resumes after the last id it saw, so this arrives too.
    await sdk.issues.update("ENG-1", { title: "After the drop" });
    expect(await run.exited).toBe(0);
    expect(run.out().stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(run.out().stderr.match(/Following/g)).toHaveLength(2);
  });

  it("prints JSON lines filtered by --jq, and exits 130 on SIGINT, as the README says", async () => {
    const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token });
    const run = tail(["--json", "--jq", '"\\(.action) \\(.entity) \\(.identifier)"']);
    await run.following;
    await sdk.comments.create("ENG-1", { body: "Seen it" });
    // The comment, then the issue it touched (its updatedAt moved).
    await expect.poll(() => run.out().stdout, { timeout: 10_000 }).toContain("created comment ENG-1\n");
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(130);
  });

  it("stops at Ctrl-C on a terminal with exit code 130", async () => {
    const run = terminal(s, ["events", "tail"]);
    await run.answer("press Ctrl-C to stop", "\x03");
    expect(await run.exited).toBe(130);
  });
});
