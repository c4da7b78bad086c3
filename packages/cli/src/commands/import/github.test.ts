import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useSession } from "../../test/binary.js";

// `tracker import github`: the built binary against a real server, and GitHub's REST API answered by a
// local server with JSON saved in fixtures/github (shaped as GitHub's documented examples).
const s = useSession();
const recorded = (name: string) =>
  readFileSync(new URL(`./fixtures/github/${name}`, import.meta.url), "utf8");

let github: Server;
let base = "";
const seen: string[] = [];
/** Faults to answer once: a rate limit on the first labels request, a failure part way through a run. */
const faults = { rateLimit: true, failComments: 0 };

beforeAll(async () => {
  github = createServer((req, res) => {
    const url = new URL(req.url!, "http://github");
    seen.push(`${req.method} ${url.pathname}${url.search} ${req.headers.authorization ?? ""}`);
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
      res.end(body);
    };
    const p = url.pathname;
    if (p === "/repos/octocat/Hello-World/labels") {
      if (faults.rateLimit) {
        faults.rateLimit = false;
        return send(403, JSON.stringify({ message: "You have exceeded a secondary rate limit." }), {
          "retry-after": "1",
          "x-ratelimit-remaining": "0",
        });
      }
      return send(200, recorded("labels.json"));
    }
    if (p === "/repos/octocat/Hello-World/milestones") return send(200, recorded("milestones.json"));
    if (p === "/repos/octocat/Hello-World/issues") {
      if (url.searchParams.get("page") === "2") return send(200, recorded("issues-page-2.json"));
      const next = new URL(url);
      next.searchParams.set("page", "2");
      return send(200, recorded("issues-page-1.json"), {
        link: `<${base}${next.pathname}${next.search}>; rel="next", <${base}${next.pathname}${next.search}>; rel="last"`,
      });
    }
    const comments = /^\/repos\/octocat\/Hello-World\/issues\/(\d+)\/comments$/.exec(p);
    if (comments) {
      if (faults.failComments === Number(comments[1])) {
        faults.failComments = 0;
        return send(502, JSON.stringify({ message: "Server Error" }));
      }
      return send(200, recorded(`comments-${comments[1]}.json`));
    }
    send(404, JSON.stringify({ message: "Not Found" }));
  });
  await new Promise<void>((resolve) => github.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(github.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => github.close(() => resolve())));

async function workspace(name: string) {
  const ws = (await s.server.client(s.token).POST("/workspaces", { body: { name } })).data!.workspace;
  const api = s.server.client(s.token, { "X-Service-Workspace": ws.slug });
  await api.POST("/teams", { body: { key: "ENG", name: "Engineering" } });
  return { api, env: { TRACKER_WORKSPACE: ws.slug, GH_TOKEN: "ghp_test" } };
}

const users = new URL("./fixtures/github/users.json", import.meta.url).pathname;

describe("tracker import github", () => {
  it("imports issues with comments, labels, people, milestones and times; waits out the rate limit; a second run changes nothing", async () => {
    const ws = await workspace("From GitHub");
    const args = [
      "import",
      "github",
      "octocat/Hello-World",
      "--team",
      "ENG",
      "--base-url",
      base,
      "--users",
      users,
    ];
    const dry = await s.run([...args, "--dry-run"], { env: ws.env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      "3 issues from octocat/Hello-World into ENG (1 open, 2 closed); 1 pull requests skipped",
    );
    expect(dry.stdout).toContain("milestones as projects: v1.0");
    expect((await ws.api.GET("/issues")).data!.issues).toEqual([]);
    expect(seen.some((l) => l.endsWith("token ghp_test"))).toBe(true);
    // The first labels request was refused with retry-after: the import waited and asked again.
    expect(seen.filter((l) => l.startsWith("GET /repos/octocat/Hello-World/labels")).length).toBe(2);

    const first = await s.run(args, { env: ws.env });
    expect(first.stderr).toContain(
      "3 issues created, 0 updated; 3 comments created, 0 updated; 1 pull requests skipped",
    );
    expect(first.code).toBe(0);
    const issues = (await ws.api.GET("/issues")).data!.issues;
    const byTitle = new Map(issues.map((i) => [i.title, i]));
    expect(byTitle.get("Found a bug")).toMatchObject({
      state: { type: "unstarted" },
      labels: ["bug"],
      project: { name: "v1.0" },
      assignee: { email: "hubot@example.com", name: "hubot" },
      createdAt: "2011-04-22T13:33:48.000Z",
      description: "I'm having a problem with this.",
    });
    expect(byTitle.get("Add a dark theme")).toMatchObject({
      state: { type: "completed" },
      assignee: null,
      completedAt: "2011-05-01T09:30:00.000Z",
    });
    expect(byTitle.get("Support IE6")).toMatchObject({ state: { type: "canceled" }, project: null });
    expect(byTitle.has("Fix the readme")).toBe(false);
    const labels = (await ws.api.GET("/labels")).data!.labels.map((l) => [l.name, l.color]);
    expect(labels).toEqual(
      expect.arrayContaining([
        ["bug", "#f29513"],
        ["enhancement", "#a2eeef"],
      ]),
    );
    const bug = byTitle.get("Found a bug")!;
    const comments = (
      await ws.api.GET("/issues/{identifier}/comments", { params: { path: { identifier: bug.identifier } } })
    ).data!.comments;
    expect(comments.map((c) => [c.author.email, c.body, c.createdAt, c.updatedAt])).toEqual([
      ["octocat@example.com", "Me too", "2011-04-22T16:00:49.000Z", "2011-04-22T16:00:49.000Z"],
      ["hubot@example.com", "Fixed on main.", "2011-04-23T09:00:00.000Z", "2011-04-23T10:00:00.000Z"],
    ]);
    const history = (
      await ws.api.GET("/issues/{identifier}/history", { params: { path: { identifier: bug.identifier } } })
    ).data!.events;
    expect(history[0]).toMatchObject({
      type: "issue_created",
      actor: { name: "octocat" },
      createdAt: "2011-04-22T13:33:48.000Z",
    });

    const again = await s.run(args, { env: ws.env });
    expect(again.stderr).toContain("0 issues created, 3 updated; 0 comments created, 3 updated");
    expect((await ws.api.GET("/issues")).data!.issues).toEqual(issues);
  });

  it("picks up where a run that was cut off stopped, and takes milestones as cycles", async () => {
    const ws = await workspace("GitHub resumed");
    const args = [
      "import",
      "github",
      "octocat/Hello-World",
      "--team",
      "ENG",
      "--base-url",
      base,
      "--milestones",
      "cycles",
    ];
    faults.failComments = 4;
    // Two issues a stretch: the first stretch is in when GitHub fails on the third issue's comments.
    const env = { ...ws.env, TRACKER_GITHUB_STRETCH: "2" };
    const cut = await s.run(args, { env });
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain("GitHub: 502");
    expect((await ws.api.GET("/issues")).data!.issues).toHaveLength(2);
    const resumed = await s.run(args, { env });
    expect(resumed.stderr).toContain("1 issues created, 2 updated");
    const issues = (await ws.api.GET("/issues")).data!.issues;
    expect(issues).toHaveLength(3);
    expect(issues.find((i) => i.title === "Found a bug")!.cycle).toMatchObject({ number: 1 });
    expect(issues.find((i) => i.title === "Found a bug")!.assignee).toMatchObject({
      email: "hubot@github.invalid",
    });
  });
});
