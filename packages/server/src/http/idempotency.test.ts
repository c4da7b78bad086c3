import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawTransaction } from "../db/sql.js";
import type { RunningServer } from "../server.js";
import { startAnotherInstance, startTestServer, type TestServer } from "../test/harness.js";
import { AnsweredMeanwhile } from "./idempotency.js";
import { beginAndClaim, pruneIdempotentRequests, recordAndCommit } from "./idempotency.query.js";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

/** A create's answer, or a problem. */
interface Answer {
  issue: { identifier: string };
  code?: string;
}

/** A raw POST, as a client that resends after a lost answer would send it. */
async function post(base: string, token: string, path: string, body: unknown, key?: string) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      ...(key ? { "Idempotency-Key": key } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer };
}

async function issueCount(workspaceId: string, title: string): Promise<number> {
  const [row] = await srv.query<{ n: number }>(
    "select count(*)::int as n from issues where workspace_id = $1 and title = $2",
    [workspaceId, title],
  );
  return row!.n;
}

async function setup() {
  const { apiKey, workspace } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  return { token: apiKey.token, workspaceId: workspace.id };
}

describe("Idempotency-Key", () => {
  it("makes the same create sent twice one issue with two equal answers, the second marked replayed", async () => {
    const { token, workspaceId } = await setup();
    const key = randomUUID();
    const body = { team: "ENG", title: "Resent create", priority: 2, labels: ["bug"] };
    const first = await post(srv.url, token, "/issues", body, key);
    const second = await post(srv.url, token, "/issues", body, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.headers.get("x-service-workspace")).toBe(first.headers.get("x-service-workspace"));
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await issueCount(workspaceId, "Resent create")).toBe(1);
    // Without a key, or with another one, the same body acts again.
    await post(srv.url, token, "/issues", body);
    await post(srv.url, token, "/issues", body, randomUUID());
    expect(await issueCount(workspaceId, "Resent create")).toBe(3);
  });

  it("makes 20 concurrent duplicates one issue: the others replay it or are told it is in progress", async () => {
    const { token, workspaceId } = await setup();
    const key = randomUUID();
    const body = { team: "ENG", title: "Concurrent duplicates" };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(srv.url, token, "/issues", body, key)),
    );
    expect(await issueCount(workspaceId, "Concurrent duplicates")).toBe(1);
    const created = answers.filter((a) => a.status === 201);
    const busy = answers.filter((a) => a.status === 409);
    expect(created.length + busy.length).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const identifier = created[0]!.body.issue.identifier;
    for (const a of created) expect(a.body.issue.identifier).toBe(identifier);
    for (const a of busy) {
      expect(a.body.code).toBe("idempotency_in_progress");
      expect(a.headers.get("retry-after")).toBe("1");
    }
    // Sent again once the first is done, each gets the first answer.
    const again = await post(srv.url, token, "/issues", body, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(created[0]!.body);
    expect(await issueCount(workspaceId, "Concurrent duplicates")).toBe(1);
  });

  it("refuses a key reused with another body, path or method, and changes nothing", async () => {
    const { token, workspaceId } = await setup();
    const key = randomUUID();
    const first = await post(srv.url, token, "/issues", { team: "ENG", title: "Original" }, key);
    expect(first.status).toBe(201);
    const otherBody = await post(srv.url, token, "/issues", { team: "ENG", title: "Different" }, key);
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.code).toBe("idempotency_key_reused");
    expect(otherBody.headers.get("content-type")).toContain("application/problem+json");
    const otherPath = await post(srv.url, token, "/labels", { name: "Different" }, key);
    expect(otherPath.status).toBe(422);
    const patch = await srv.client(token, { "Idempotency-Key": key }).PATCH("/issues/{identifier}", {
      params: { path: { identifier: first.body.issue.identifier } },
      body: { title: "Different" },
    });
    expect(patch.response.status).toBe(422);
    expect(await issueCount(workspaceId, "Different")).toBe(0);
    const [label] = await srv.query("select 1 from labels where workspace_id = $1 and name = 'Different'", [
      workspaceId,
    ]);
    expect(label).toBeUndefined();
    // The same body with its keys in another order is the same request.
    const reordered = await post(srv.url, token, "/issues", { title: "Original", team: "ENG" }, key);
    expect(reordered.status).toBe(201);
    expect(reordered.headers.get("idempotent-replayed")).toBe("true");
  });

  it("replays a PATCH's first answer without undoing later changes", async () => {
    const { token } = await setup();
    const api = srv.client(token);
    const issue = (await api.POST("/issues", { body: { team: "ENG", title: "Patch me" } })).data!.issue;
    const key = randomUUID();
    const withKey = srv.client(token, { "Idempotency-Key": key });
    const path = { params: { path: { identifier: issue.identifier } } };
    const first = await withKey.PATCH("/issues/{identifier}", { ...path, body: { state: "In Progress" } });
    expect(first.data!.issue.state.name).toBe("In Progress");
    await api.PATCH("/issues/{identifier}", { ...path, body: { state: "Done" } });
    const repeat = await withKey.PATCH("/issues/{identifier}", { ...path, body: { state: "In Progress" } });
    expect(repeat.response.headers.get("idempotent-replayed")).toBe("true");
    expect(repeat.data).toEqual(first.data);
    expect((await api.GET("/issues/{identifier}", path)).data!.issue.state.name).toBe("Done");
  });

  it("does not store refused requests: the same key acts once the request can succeed", async () => {
    const { token, workspaceId } = await setup();
    const key = randomUUID();
    const body = { team: "OPS", title: "Needs a team" };
    const refused = await post(srv.url, token, "/issues", body, key);
    expect(refused.status).toBe(404);
    await post(srv.url, token, "/teams", { key: "OPS", name: "Operations" });
    const accepted = await post(srv.url, token, "/issues", body, key);
    expect(accepted.status).toBe(201);
    expect(accepted.headers.get("idempotent-replayed")).toBeNull();
    expect(await issueCount(workspaceId, "Needs a team")).toBe(1);
  });

  it("keeps each API key's keys apart", async () => {
    const { token, workspaceId } = await setup();
    const other = (await srv.client(token).POST("/api-keys", { body: { name: "second" } })).data!.key.token;
    const key = randomUUID();
    const body = { team: "ENG", title: "Two callers" };
    expect((await post(srv.url, token, "/issues", body, key)).status).toBe(201);
    const second = await post(srv.url, other, "/issues", body, key);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(await issueCount(workspaceId, "Two callers")).toBe(2);
  });

  it("refuses a malformed key with 400 naming the header, before acting", async () => {
    const { token, workspaceId } = await setup();
    for (const bad of ["has space", "x".repeat(256)]) {
      const res = await fetch(`${srv.url}/api/v1/issues`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          "Idempotency-Key": bad,
        },
        body: JSON.stringify({ team: "ENG", title: "Bad key" }),
      });
      expect(res.status).toBe(400);
      const problem = (await res.json()) as { code: string; errors: { path: string }[] };
      expect(problem.code).toBe("invalid_request");
      expect(problem.errors[0]!.path).toBe("/header/Idempotency-Key");
    }
    expect(await issueCount(workspaceId, "Bad key")).toBe(0);
  });

  it("stores the answer with the work: when the record cannot be written, the work is rolled back", async () => {
    const { token, workspaceId } = await setup();
    const key = `refuse-${randomUUID()}`;
    await srv.query(`create or replace function refuse_test_key() returns trigger language plpgsql as $$
      begin if new.key like 'refuse-%' then raise exception 'record refused'; end if; return new; end $$`);
    await srv.query(
      "create trigger refuse_test_key before insert on idempotent_requests for each row execute function refuse_test_key()",
    );
    try {
      const failed = await post(srv.url, token, "/issues", { team: "ENG", title: "Half done" }, key);
      expect(failed.status).toBe(500);
      expect(await issueCount(workspaceId, "Half done")).toBe(0);
      const [events] = await srv.query<{ n: number }>(
        "select count(*)::int as n from change_events where workspace_id = $1 and entity = 'issue'",
        [workspaceId],
      );
      expect(events!.n).toBe(0);
    } finally {
      await srv.query("drop trigger refuse_test_key on idempotent_requests");
    }
  });

  it("rolls a keyed create's own session back when a repeat's answer committed meanwhile", async () => {
    const { workspaceId } = await setup();
    const [apiKey] = await srv.query<{ id: string }>(
      "select id from api_keys order by created_at desc limit 1",
    );
    const key = `meanwhile-${randomUUID()}`;
    const answer = { status: 201, workspaceSlug: null, body: "{}" };
    // The repeat's record, committed after this request's claim found none.
    let refused: unknown;
    await rawTransaction(srv.running.orm.em, async (client) => {
      expect(await beginAndClaim(client, apiKey!.id, key, "f")).toBeUndefined();
      await client.query("update workspaces set name = $2 where id = $1", [workspaceId, key]);
      await srv.query(
        "insert into idempotent_requests (api_key_id, key, fingerprint, status, body, created_at) values ($1, $2, 'f', 201, '{}', now())",
        [apiKey!.id, key],
      );
      refused = await recordAndCommit(client, apiKey!.id, key, "f", answer).catch((e) => e);
    });
    expect(refused).toBeInstanceOf(AnsweredMeanwhile);
    const [workspace] = await srv.query<{ name: string }>("select name from workspaces where id = $1", [
      workspaceId,
    ]);
    expect(workspace!.name).not.toBe(key);
    await srv.query("delete from idempotent_requests where key = $1", [key]);
  });

  it("forgets keys after 24 hours: pruned, and the same key then acts anew", async () => {
    const { token, workspaceId } = await setup();
    const key = randomUUID();
    const body = { team: "ENG", title: "Old key" };
    await post(srv.url, token, "/issues", body, key);
    await srv.query(
      "update idempotent_requests set created_at = now() - interval '25 hours' where key = $1",
      [key],
    );
    // Expired but not yet pruned: not replayed, and its record is replaced.
    const fresh = await post(srv.url, token, "/issues", body, key);
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
    expect(await issueCount(workspaceId, "Old key")).toBe(2);
    await srv.query(
      "update idempotent_requests set created_at = now() - interval '25 hours' where key = $1",
      [key],
    );
    expect(await pruneIdempotentRequests(srv.running.orm.em)).toBeGreaterThanOrEqual(1);
    expect(await srv.query("select 1 from idempotent_requests where key = $1", [key])).toEqual([]);
  });

  it("is shared by two server instances on one database", async () => {
    const { token, workspaceId } = await setup();
    let second: RunningServer | undefined;
    try {
      second = await startAnotherInstance(srv.databaseUrl);
      const key = randomUUID();
      const body = { team: "ENG", title: "Across instances" };
      const first = await post(srv.url, token, "/issues", body, key);
      const repeat = await post(second.url, token, "/issues", body, key);
      expect(repeat.status).toBe(201);
      expect(repeat.headers.get("idempotent-replayed")).toBe("true");
      expect(repeat.body).toEqual(first.body);
      const both = await Promise.all([
        post(srv.url, token, "/issues", { ...body, title: "Racing instances" }, `race-${key}`),
        post(second.url, token, "/issues", { ...body, title: "Racing instances" }, `race-${key}`),
      ]);
      expect(both.map((a) => a.status).sort()).toEqual(expect.arrayContaining([201]));
      expect(await issueCount(workspaceId, "Across instances")).toBe(1);
      expect(await issueCount(workspaceId, "Racing instances")).toBe(1);
    } finally {
      await second?.close();
    }
  });
});
