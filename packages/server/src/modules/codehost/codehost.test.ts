import { createRequire } from "node:module";
import { sign } from "@octokit/webhooks-methods";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, useTestServer } from "../../test/harness.js";

/**
 * The GitHub integration through its real endpoint: GitHub's own example payloads (the
 * `@octokit/webhooks-examples` package), given this workspace's branch, title and body, signed as GitHub
 * signs them (`@octokit/webhooks-methods`), and sent as GitHub sends them.
 */
const srv = useTestServer();
const require = createRequire(import.meta.url);
const examples = require("@octokit/webhooks-examples") as {
  name: string;
  examples: Record<string, unknown>[];
}[];

// biome-ignore lint/suspicious/noExplicitAny: GitHub's example payloads are edited field by field
type Json = Record<string, any>;
const example = (event: string, pick: (e: Json) => boolean): Json => {
  const found = examples.find((e) => e.name === event)!.examples.find((e) => pick(e as Json));
  if (!found) throw new Error(`no ${event} example`);
  return structuredClone(found) as Json;
};

let events = 0;
/** A `pull_request` payload of `action` as GitHub sends it, for this PR. */
function pullRequest(
  action: string,
  pr: {
    number: number;
    branch: string;
    title: string;
    body?: string | null;
    draft?: boolean;
    merged?: boolean;
  },
): Json {
  const payload = example("pull_request", (e) => e.action === (action === "merged" ? "closed" : action));
  payload.action = action === "merged" ? "closed" : action;
  Object.assign(payload.pull_request, {
    number: pr.number,
    title: pr.title,
    body: pr.body ?? null,
    draft: pr.draft ?? false,
    merged: action === "merged" || pr.merged === true,
    html_url: `https://github.com/acme/app/pull/${pr.number}`,
    // As on GitHub, each event's pull request carries the time it changed.
    updated_at: new Date(Date.now() + ++events * 1000).toISOString(),
  });
  payload.pull_request.head.ref = pr.branch;
  payload.repository.full_name = "acme/app";
  payload.number = pr.number;
  return payload;
}

let admin: ApiClient;
let member: ApiClient;
let adminToken: string;
let secret: string;
let path: string;
let deliveries = 0;

beforeAll(async () => {
  const boot = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  adminToken = boot.apiKey.token;
  admin = srv.client(adminToken);
  member = srv.client((await srv.addMember(adminToken, "member")).token);
});

async function deliver(
  event: string,
  payload: unknown,
  opts: { id?: string; key?: string; raw?: string } = {},
) {
  const body = opts.raw ?? JSON.stringify(payload);
  const id = opts.id ?? `delivery-${++deliveries}`;
  const res = await srv.fetch(
    new Request(`${srv.url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": event,
        "x-github-delivery": id,
        "x-hub-signature-256": await sign(opts.key ?? secret, body),
        "user-agent": "GitHub-Hookshot/test",
      },
      body,
    }),
  );
  return { status: res.status, body: (await res.json()) as Json, id };
}

async function issue(identifier: string) {
  const res = await admin.GET("/issues/{identifier}", { params: { path: { identifier } } });
  return res.data!.issue;
}

async function create(title: string, extra: Json = {}) {
  const res = await admin.POST("/issues", { body: { team: "ENG", title, priority: 0, ...extra } });
  return res.data!.issue;
}

async function rule(trigger: string, state: string, projectId?: string) {
  const flows = await admin.GET("/teams/{key}/workflows", { params: { path: { key: "ENG" } } });
  const target = flows.data!.states.find((s) => s.name === state)!;
  const res = await admin.POST("/teams/{key}/workflows", {
    params: { path: { key: "ENG" } },
    body: { trigger: trigger as never, targetStateId: target.id, projectId: projectId ?? null },
  });
  expect(res.response.status).toBeLessThan(300);
}

const counts = async () =>
  (
    await srv.query<{ prs: number; acts: number; changes: number; seen: number }>(
      `select (select count(*)::int from issue_pull_requests) as prs, (select count(*)::int from activity_events) as acts,
              (select count(*)::int from change_events) as changes, (select count(*)::int from codehost_deliveries) as seen`,
    )
  )[0]!;

describe("connecting a workspace", () => {
  it("is for admins; the secret is shown once and the integration then reports its path and events", async () => {
    const before = await admin.GET("/workspace/codehost");
    expect(before.data).toEqual({ configured: false, provider: null, path: null, events: [] });
    const refused = await member.PUT("/workspace/codehost", { body: { provider: "github" } });
    expect(refused.response.status).toBe(403);
    expect(refused.error!.code).toBe("admin_required");

    const connected = await admin.PUT("/workspace/codehost", { body: { provider: "github" } });
    expect(connected.response.status).toBe(200);
    secret = connected.data!.secret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    path = connected.data!.codehost.path!;
    expect(path).toMatch(/^\/api\/v1\/codehost\/github\/[0-9a-f-]{36}$/);

    const after = await member.GET("/workspace/codehost");
    expect(after.data).toMatchObject({ configured: true, provider: "github", path });
    expect(after.data!.events).toEqual(
      expect.arrayContaining(["pull_request.opened", "pull_request.closed", "push"]),
    );
    // Kept sealed: the database holds no copy of the secret in clear.
    const [row] = await srv.query<{ sealed: string }>(
      "select secret_sealed as sealed from codehost_connections",
    );
    expect(row!.sealed).not.toContain(secret);
  });

  it("answers GitHub's ping", async () => {
    const res = await deliver(
      "ping",
      example("ping", () => true),
    );
    expect(res).toMatchObject({ status: 200, body: { ok: true, handled: true, duplicate: false } });
  });
});

describe("deliveries that are refused", () => {
  it("a bad or missing signature is 401 and changes nothing", async () => {
    const target = await create("Refused delivery");
    const before = await counts();
    const payload = pullRequest("opened", {
      number: 90,
      branch: `${target.identifier.toLowerCase()}-x`,
      title: "x",
    });
    const wrong = await deliver("pull_request", payload, { key: "not-the-secret-at-all" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("unauthenticated");
    const missing = await fetch(`${srv.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-github-event": "ping", "x-github-delivery": "m-1" },
      body: "{}",
    });
    expect(missing.status).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it("a workspace that is not connected is 401", async () => {
    const res = await fetch(`${srv.url}/api/v1/codehost/github/00000000-0000-4000-8000-000000000000`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${"0".repeat(64)}` },
      body: "{}",
    });
    expect(res.status).toBe(401);
  });

  it("a malformed or oversized body is a clear 4xx, never a 500", async () => {
    const bad = await deliver("pull_request", null, { raw: '{"action": "opened", ' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_request");
    const shapeless = await deliver("pull_request", { action: "opened", pull_request: "no" });
    expect(shapeless.status).toBe(400);
    const form = "payload=%7B%7D";
    const formRes = await srv.fetch(
      new Request(`${srv.url}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-github-event": "ping",
          "x-github-delivery": "form-1",
          "x-hub-signature-256": await sign(secret, form),
        },
        body: form,
      }),
    );
    expect(formRes.status).toBe(400);
    const huge = await deliver("pull_request", { action: "opened", padding: "x".repeat(1_100_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe("payload_too_large");
  });

  it("an event or action it does not handle is acknowledged and ignored", async () => {
    const before = await counts();
    const labeled = await deliver(
      "pull_request",
      pullRequest("labeled", { number: 91, branch: "eng-1", title: "x" }),
    );
    expect(labeled).toMatchObject({ status: 200, body: { handled: false, duplicate: false } });
    const star = await deliver("star", { action: "created", repository: { full_name: "acme/app" } });
    expect(star).toMatchObject({ status: 200, body: { handled: false } });
    const after = await counts();
    expect({ ...after, seen: before.seen }).toEqual(before);
  });
});

describe("pull requests move issues by the workflow rules", () => {
  beforeAll(async () => {
    await rule("pr_draft", "Todo");
    await rule("pr_opened", "In Progress");
    await rule("pr_review_requested", "In Review");
    await rule("pr_merged", "Done");
    await rule("pr_closed", "Canceled");
  });

  it("every action moves the issue its branch names to its rule's state, attributed to the integration", async () => {
    const target = await create("Fix login crash");
    const branch = `ada/${target.identifier.toLowerCase()}-fix-login-crash`;
    const pr = { number: 7, branch, title: "Fix the login crash" };
    const steps: [string, Json, string, string][] = [
      ["opened", { draft: true }, "Todo", "draft"],
      ["ready_for_review", {}, "In Progress", "open"],
      ["converted_to_draft", { draft: true }, "Todo", "draft"],
      ["ready_for_review", {}, "In Progress", "open"],
      ["review_requested", {}, "In Review", "open"],
      ["merged", {}, "Done", "merged"],
    ];
    for (const [action, extra, state, prState] of steps) {
      const res = await deliver("pull_request", pullRequest(action, { ...pr, ...extra }));
      expect({ action, ...res.body }).toMatchObject({ action, handled: true, issues: [target.identifier] });
      const now = await issue(target.identifier);
      expect({ action, state: now.state.name, pr: now.pullRequests[0]?.state }).toEqual({
        action,
        state,
        pr: prState,
      });
    }
    const read = await issue(target.identifier);
    expect(read.pullRequests).toEqual([
      expect.objectContaining({
        provider: "github",
        repository: "acme/app",
        number: 7,
        title: "Fix the login crash",
        url: "https://github.com/acme/app/pull/7",
        state: "merged",
        branch,
        closes: true,
      }),
    ]);
    expect(read.completedAt).not.toBeNull();
    const page = await admin.GET("/issues/{identifier}/page-data", {
      params: { path: { identifier: target.identifier } },
    });
    expect(page.data!.pullRequests).toEqual(read.pullRequests);

    // The issue's activity, as the digest shows it: the integration acts as `actor: null`.
    const activity = await srv.query<{ type: string; actor_id: string | null; payload: Json }>(
      "select type, actor_id, payload from activity_events where issue_id = $1 and type <> 'issue_created' order by created_at",
      [target.id],
    );
    expect(activity.every((a) => a.actor_id === null)).toBe(true);
    expect(activity.filter((a) => a.type === "state_changed").map((a) => a.payload.to.name)).toEqual([
      "Todo",
      "In Progress",
      "Todo",
      "In Progress",
      "In Review",
      "Done",
    ]);
    expect(activity.filter((a) => a.type === "pull_request").map((a) => a.payload.action)).toEqual([
      "draft",
      "ready_for_review",
      "draft",
      "ready_for_review",
      "review_requested",
      "merged",
    ]);
    const digest = await srv.client(adminToken).GET("/my/digest", {});
    expect(digest.data!.events.some((e) => e.type === "pull_request" && e.actor === null)).toBe(true);

    // And on the event stream's log: the PR link and the issue's changes.
    const changes = await srv.query<{ entity: string; identifier: string }>(
      "select entity, identifier from change_events where identifier = $1 and entity in ('pull_request', 'issue')",
      [target.identifier],
    );
    expect(changes.filter((c) => c.entity === "pull_request").length).toBe(6);
    expect(changes.filter((c) => c.entity === "issue").length).toBeGreaterThanOrEqual(7);
  });

  it("a PR closed without merging fires pr_closed; reopened fires pr_opened", async () => {
    const target = await create("Abandoned idea");
    const pr = { number: 8, branch: target.identifier, title: "Try an idea" };
    await deliver("pull_request", pullRequest("opened", pr));
    expect((await issue(target.identifier)).state.name).toBe("In Progress");
    await deliver("pull_request", pullRequest("closed", pr));
    const closed = await issue(target.identifier);
    expect(closed.state.name).toBe("Canceled");
    expect(closed.pullRequests[0]!.state).toBe("closed");
    await deliver("pull_request", pullRequest("reopened", pr));
    expect((await issue(target.identifier)).state.name).toBe("In Progress");
  });

  it("a project's rule wins over the team's", async () => {
    const project = await admin.POST("/projects", { body: { name: "Launch", teams: ["ENG"] } });
    const projectId = project.data!.project.id;
    await rule("pr_opened", "In Review", projectId);
    const inProject = await create("In the project", { project: "Launch" });
    const outside = await create("Outside it");
    await deliver(
      "pull_request",
      pullRequest("opened", {
        number: 9,
        branch: "feature",
        title: `${inProject.identifier} and ${outside.identifier}`,
      }),
    );
    expect((await issue(inProject.identifier)).state.name).toBe("In Review");
    expect((await issue(outside.identifier)).state.name).toBe("In Progress");
  });

  it("magic words in the body: Fixes closes on merge, Part of only links", async () => {
    const fixed = await create("Fixed by the body");
    const related = await create("Related by the body");
    const pr = {
      number: 10,
      branch: "cleanup",
      title: "Cleanup",
      body: `Fixes ${fixed.identifier}\n\nPart of ${related.identifier.toLowerCase()}`,
    };
    const opened = await deliver("pull_request", pullRequest("opened", pr));
    expect(opened.body.issues.sort()).toEqual([fixed.identifier, related.identifier].sort());
    await deliver("pull_request", pullRequest("merged", pr));
    const f = await issue(fixed.identifier);
    const r = await issue(related.identifier);
    expect(f.state.name).toBe("Done");
    expect(r.state.name).toBe("Backlog");
    expect(r.pullRequests).toEqual([expect.objectContaining({ number: 10, state: "merged", closes: false })]);
  });

  it("a replayed delivery does nothing twice", async () => {
    const target = await create("Replayed");
    const payload = pullRequest("opened", {
      number: 11,
      branch: target.identifier.toLowerCase(),
      title: "Replay",
    });
    const first = await deliver("pull_request", payload, { id: "replayed-delivery" });
    expect(first.body).toMatchObject({ duplicate: false, handled: true });
    // Someone moves the issue back; the replay must not move it again, nor add activity.
    await admin.PATCH("/issues/{identifier}", {
      params: { path: { identifier: target.identifier } },
      body: { state: "Backlog" },
    });
    const before = await counts();
    const again = await deliver("pull_request", payload, { id: "replayed-delivery" });
    expect(again).toMatchObject({ status: 200, body: { duplicate: true, issues: [] } });
    // The signature covers the body alone: the same body under another delivery id is a replay too.
    const forged = await deliver("pull_request", payload, { id: "another-delivery-id" });
    expect(forged).toMatchObject({ status: 200, body: { duplicate: true } });
    expect((await issue(target.identifier)).state.name).toBe("Backlog");
    expect(await counts()).toEqual(before);
  });

  it("a moved issue's old identifier in a branch still finds it", async () => {
    const team = await admin.POST("/teams", { body: { key: "OPS", name: "Operations" } });
    expect(team.response.status).toBe(201);
    const target = await create("Moves to OPS");
    const oldIdentifier = target.identifier;
    const moved = await admin.POST("/issues/move", { body: { identifiers: [oldIdentifier], team: "OPS" } });
    const newIdentifier = moved.data!.moved[0]!.to;
    expect(newIdentifier).toMatch(/^OPS-/);
    const res = await deliver(
      "pull_request",
      pullRequest("opened", {
        number: 12,
        branch: `${oldIdentifier.toLowerCase()}-moves`,
        title: "Old name",
      }),
    );
    expect(res.body.issues).toEqual([newIdentifier]);
    const read = await issue(newIdentifier);
    expect(read.pullRequests.map((p) => p.number)).toEqual([12]);
  });

  it("a push to the default branch closes what its commit messages fix", async () => {
    const target = await create("Fixed on main");
    const payload = example("push", (e) => e.ref === "refs/heads/master");
    payload.repository.default_branch = "master";
    payload.commits = [{ ...payload.head_commit, message: `Tidy up\n\nCloses ${target.identifier}` }];
    const res = await deliver("push", payload);
    expect(res.body).toMatchObject({ handled: true, issues: [target.identifier] });
    expect((await issue(target.identifier)).state.name).toBe("Done");
  });
});

describe("branch names", () => {
  it("each issue offers its branch name in the read and the page data", async () => {
    const target = await create("Fix: login crash on Safari (iOS 17)");
    const read = await issue(target.identifier);
    expect(read.branchName).toBe(`${target.identifier.toLowerCase()}-fix-login-crash-on-safari-ios-17`);
    const page = await admin.GET("/issues/{identifier}/page-data", {
      params: { path: { identifier: target.identifier } },
    });
    expect(page.data!.issue.branchName).toBe(read.branchName);
  });
});
