import { describe, expect, it } from "vitest";
import { runCli } from "./cli.js";
import { fakeTracker, json, problem, testIo } from "./test/fake-api.js";

describe("tracker exit codes", () => {
  it("exits 1 and prints `code: detail` when the server refuses", async () => {
    const { tracker } = fakeTracker(() => problem(404, "not_found", "No issue ENG-999 in workspace acme."));
    const { io, stdout, stderr } = testIo(tracker);
    expect(await runCli(["issues", "view", "ENG-999"], io)).toBe(1);
    expect(stderr.text).toBe("not_found: No issue ENG-999 in workspace acme.\n");
    expect(stdout.text).toBe("");
  });

  it("lists the offending fields of an invalid_request", async () => {
    const { tracker } = fakeTracker(() =>
      problem(400, "invalid_request", "The request body does not match the schema.", {
        errors: [{ path: "/body/state", message: 'no state "Doing" in ENG' }],
      }),
    );
    const { io, stderr } = testIo(tracker);
    expect(await runCli(["issues", "edit", "ENG-1", "--state", "Doing"], io)).toBe(1);
    expect(stderr.text).toContain('/body/state: no state "Doing" in ENG');
  });

  it("names the workspaces to choose from on workspace_required", async () => {
    const { tracker } = fakeTracker(() =>
      problem(400, "workspace_required", "Name a workspace.", {
        workspaces: [{ id: "1", slug: "acme", name: "Acme" }],
      }),
    );
    const { io, stderr } = testIo(tracker);
    expect(await runCli(["users", "list"], io)).toBe(1);
    expect(stderr.text).toContain("acme\tAcme");
    expect(stderr.text).toContain("--workspace");
  });

  it("exits 4 when the server rejects the key", async () => {
    const { tracker } = fakeTracker(() => problem(401, "unauthenticated", "Unknown API key."));
    const { io, stderr } = testIo(tracker);
    expect(await runCli(["teams", "list"], io)).toBe(4);
    expect(stderr.text).toContain("TRACKER_API_KEY");
  });

  it("exits 4 without calling the server when no key is set", async () => {
    const { tracker, sent } = fakeTracker(() => json(200, { users: [] }));
    const { io, stderr } = testIo(tracker, {});
    expect(await runCli(["users", "list"], io)).toBe(4);
    expect(stderr.text).toBe(
      "not authenticated: no API key for http://localhost:3000.\n" +
        "Run 'tracker auth login', or set TRACKER_API_KEY to an API key (trk_…).\n",
    );
    expect(sent).toHaveLength(0);
  });

  it("exits 3 when the server cannot be reached", async () => {
    const { tracker } = fakeTracker(() => {
      throw new TypeError("fetch failed", {
        cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      });
    });
    const { io, stderr } = testIo(tracker);
    expect(await runCli(["workspaces", "list"], io)).toBe(3);
    expect(stderr.text).toContain("cannot reach server");
    expect(stderr.text).toContain("TRACKER_URL");
  });

  it.each([
    [["issues", "lsit"], 'unknown command "issues lsit"'],
    [["bugs", "list"], 'unknown command "bugs"'],
    [["issues", "list", "--colour"], "--colour"],
    [["issues", "view"], "missing <id>"],
    [["issues", "view", "ENG-1", "ENG-2"], 'unexpected argument "ENG-2"'],
    [["issues", "create", "--title", "No team"], "--team is required"],
    [["issues", "list", "--limit", "lots"], 'invalid value "lots" for --limit'],
  ])("exits 2 on a usage error: %j", async (argv, message) => {
    const { tracker, sent } = fakeTracker(() => json(200, {}));
    const { io, stderr } = testIo(tracker);
    expect(await runCli(argv, io)).toBe(2);
    expect(stderr.text).toContain(message);
    expect(sent).toHaveLength(0);
  });
});

describe("tracker help", () => {
  it("documents every command, the environment and the exit codes", async () => {
    const { tracker } = fakeTracker(() => json(200, {}));
    const { io, stdout } = testIo(tracker, {});
    expect(await runCli(["--help"], io)).toBe(0);
    expect(stdout.text).toContain("issues list");
    expect(stdout.text).toContain("api");
    expect(stdout.text).toContain("TRACKER_API_KEY");
    expect(stdout.text).toMatch(
      /EXIT CODES[\s\S]*0 +OK[\s\S]*1 +The server refused[\s\S]*2 +Usage[\s\S]*3 +Cannot reach[\s\S]*4 +Not authenticated[\s\S]*130 +Interrupted/,
    );
  });

  it("shows a command's flags with --help, without a key", async () => {
    const { tracker } = fakeTracker(() => json(200, {}));
    const { io, stdout } = testIo(tracker, {});
    expect(await runCli(["issues", "list", "--help"], io)).toBe(0);
    expect(stdout.text).toContain("--state-type TYPES");
    expect(stdout.text).toContain("-q, --search TEXT");
    expect(stdout.text).toContain("--json");
  });

  it("lists a noun's commands", async () => {
    const { tracker } = fakeTracker(() => json(200, {}));
    const { io, stdout } = testIo(tracker, {});
    expect(await runCli(["keys", "--help"], io)).toBe(0);
    expect(stdout.text).toContain("keys create");
    expect(stdout.text).toContain("keys delete");
  });
});

describe("global flags", () => {
  it("takes --url and --workspace before or after the command", async () => {
    const { tracker } = fakeTracker(() => json(200, { users: [] }));
    const configs: unknown[] = [];
    const { io } = testIo(tracker);
    io.makeTracker = (config) => {
      configs.push(config);
      return tracker;
    };
    await runCli(["--workspace", "acme", "users", "list"], io);
    await runCli(["users", "list", "--url", "http://other:4000", "-w", "beta"], io);
    expect(configs).toMatchObject([
      {
        baseUrl: "http://localhost:3000",
        urlSource: "default",
        apiKey: "trk_test",
        workspace: "acme",
        timeoutMs: 30_000,
      },
      { baseUrl: "http://other:4000", urlSource: "flag", apiKey: "trk_test", workspace: "beta" },
    ]);
  });
});

describe("tracker api", () => {
  it("sends fields as a JSON body and prints the answer", async () => {
    const { tracker, sent } = fakeTracker(() => json(200, { issue: { identifier: "ENG-12" } }));
    const { io, stdout } = testIo(tracker);
    const argv = [
      "api",
      "PATCH",
      "/issues/ENG-12",
      "-f",
      "state=In Progress",
      "-F",
      "priority=2",
      "-F",
      "addLabels[]=bug",
    ];
    expect(await runCli(argv, io)).toBe(0);
    expect(sent[0]).toMatchObject({
      method: "PATCH",
      path: "/issues/ENG-12",
      body: { state: "In Progress", priority: 2, addLabels: ["bug"] },
    });
    expect(JSON.parse(stdout.text)).toEqual({ issue: { identifier: "ENG-12" } });
  });

  it("puts GET fields in the query string and exits 1 on a problem", async () => {
    const { tracker, sent } = fakeTracker(() => problem(404, "not_found", "No team NOPE."));
    const { io, stderr } = testIo(tracker);
    expect(await runCli(["api", "get", "/api/v1/issues?sort=-priority", "-F", "team=NOPE"], io)).toBe(1);
    expect(sent[0]!.path).toBe("/issues");
    expect(sent[0]!.query.get("team")).toBe("NOPE");
    expect(sent[0]!.query.get("sort")).toBe("-priority");
    expect(stderr.text).toBe("not_found: No team NOPE.\n");
  });
});

describe("every command", () => {
  it("loads, documents its flags with examples, and has no argument named like a flag", async () => {
    const { commands } = await import("./commands/index.js");
    const { tracker } = fakeTracker(() => json(200, {}));
    for (const name of Object.keys(commands)) {
      const { io, stdout, stderr } = testIo(tracker, {});
      expect(await runCli([...name.split(" "), "--help"], io), name).toBe(0);
      expect(stderr.text).toBe("");
      expect(stdout.text, name).toContain(`USAGE\n  tracker ${name}`);
      expect(stdout.text, name).toMatch(/EXAMPLES\n {2}\$ .*tracker /);
    }
  });
});
