import http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../server.js";
import { Stream } from "../test/event-stream.js";
import { startAnotherInstance, type TestServer, testContract, useTestServer } from "../test/harness.js";
import { type Change, recordChanges } from "./record-change.query.js";

// Short intervals so the tests need not wait; read by startHttp (loadEventsConfig), restored afterwards.
const EVENTS_ENV: Record<string, string> = {
  TRACKER_EVENTS_PING_MS: "150",
  TRACKER_EVENTS_KEEPALIVE_MS: "100",
  TRACKER_EVENTS_RETRY_MS: "100",
  TRACKER_EVENTS_MAX_BUFFER_BYTES: "65536",
  TRACKER_EVENTS_CLOSE_GRACE_MS: "10000",
};
const savedEnv = Object.fromEntries(Object.keys(EVENTS_ENV).map((k) => [k, process.env[k]]));
Object.assign(process.env, EVENTS_ENV);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const srv = useTestServer();
let admin: Awaited<ReturnType<TestServer["bootstrap"]>>;
const open: Stream[] = [];
const stream = (...args: ConstructorParameters<typeof Stream>) => {
  const s = new Stream(...args);
  open.push(s);
  return s;
};

/** Records changes the way every module does: inside a transaction of the server's own ORM. */
async function record(workspaceId: string, changes: Change[]): Promise<void> {
  await srv.running.orm.em.fork().transactional((em) => recordChanges(em, workspaceId, changes));
}

const uuid = () => crypto.randomUUID();

beforeAll(async () => {
  admin = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
});
// The contract-checking client cannot read a stream: every `changed` event a test's streams received is
// checked against the contract's `ChangeEvent` here.
const checkedEvents = new WeakMap<Stream, number>();
afterEach(() => {
  const problems = open.flatMap((s) => {
    const from = checkedEvents.get(s) ?? 0;
    checkedEvents.set(s, s.events.length);
    return s.events
      .slice(from)
      .filter((e) => e.event === "changed")
      .flatMap((e) => testContract().checkSchema("ChangeEvent", e.data));
  });
  expect(problems).toEqual([]);
});
afterAll(async () => {
  for (const s of open) s.close();
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("GET /events", () => {
  it("opens with the stream headers, retry hint and connected, then sends changed events and pings", async () => {
    const controller = new AbortController();
    const res = await fetch(`${srv.url}/api/v1/events`, {
      headers: { Authorization: `Bearer ${admin.apiKey.token}`, "X-Request-Id": "sse-test-1" },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    // Not chunk-encoded: the body ends with the connection, as the contract says.
    expect(res.headers.get("transfer-encoding")).toBeNull();
    expect(res.headers.get("connection")).toBe("close");
    expect(res.headers.get("x-request-id")).toBe("sse-test-1");
    expect(res.headers.get("x-service-workspace")).toBe(admin.workspace.slug);
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("event: ping") || !text.includes(": keep-alive")) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    expect(text).toMatch(
      new RegExp(
        `^retry: 100\\n\\nevent: connected\\nid: \\d+\\ndata: \\{"workspace":"${admin.workspace.slug}"\\}\\n\\n`,
      ),
    );
    expect(text).toContain("event: ping\ndata: {}\n\n");
    controller.abort();
  });

  it("refuses without a key, like every operation", async () => {
    const res = await fetch(`${srv.url}/api/v1/events`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe("unauthenticated");
  });

  it("delivers workspace, invite and member changes as `changed` with the documented data", async () => {
    const s = stream(srv.url, admin.apiKey.token);
    await s.opened();
    expect(s.events[0]!.event).toBe("connected");
    expect(s.events[0]!.data).toEqual({ workspace: admin.workspace.slug });
    const api = srv.client(admin.apiKey.token);

    const before = Date.now();
    await api.PATCH("/workspace", { body: { name: "Renamed for events" } });
    const renamed = await s.changed(admin.workspace.id);
    expect(renamed.data).toEqual({
      entity: "workspace",
      action: "updated",
      id: admin.workspace.id,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Math.abs(Date.parse(renamed.data.at as string) - before)).toBeLessThan(10_000);
    expect(Number(renamed.id)).toBeGreaterThan(0);

    const invite = (await api.POST("/invites", { body: { email: "sse-invitee@example.com" } })).data!.invite;
    expect((await s.changed(invite.id)).data).toMatchObject({ entity: "invite", action: "created" });
    await api.DELETE("/invites/{id}", { params: { path: { id: invite.id } } });
    await s.changed(invite.id, "deleted");

    const member = await srv.addMember(admin.apiKey.token, "member");
    await s.changed(member.userId, "created");
    await api.PATCH("/members/{userId}", {
      params: { path: { userId: member.userId } },
      body: { role: "guest" },
    });
    expect((await s.changed(member.userId, "updated")).data).toMatchObject({ entity: "member" });

    // Ids only grow, and `changed` events carry one each.
    const ids = s.changes().map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("resumes with Last-Event-ID: exactly the missed events in order, then live ones", async () => {
    const ws = admin.workspace.id;
    const first = stream(srv.url, admin.apiKey.token);
    await first.opened();
    const a = uuid();
    await record(ws, [{ entity: "label", action: "created", id: a }]);
    const seen = await first.changed(a);
    first.close();

    const missed = [uuid(), uuid(), uuid()];
    await record(ws, [{ entity: "label", action: "updated", id: missed[0]! }]);
    await record(ws, [
      { entity: "label", action: "updated", id: missed[1]! },
      { entity: "label", action: "deleted", id: missed[2]! },
    ]);

    const resumed = stream(srv.url, admin.apiKey.token, { lastEventId: seen.id });
    await resumed.until((s) => s.changes().length >= 3, "the replay");
    const live = uuid();
    await record(ws, [{ entity: "label", action: "created", id: live }]);
    await resumed.changed(live);
    expect(resumed.events[0]!.event).toBe("connected");
    expect(resumed.changes().map((e) => e.data.id)).toEqual([...missed, live]);
    const ids = resumed.changes().map((e) => Number(e.id));
    expect(ids[0]).toBeGreaterThan(Number(seen.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));

    // The `connected` id resumes a stream that dropped before its first change.
    const quiet = stream(srv.url, admin.apiKey.token);
    await quiet.opened();
    const since = quiet.events[0]!.id;
    quiet.close();
    const meanwhile = uuid();
    await record(ws, [{ entity: "label", action: "created", id: meanwhile }]);
    const back = stream(srv.url, admin.apiKey.token, { lastEventId: since });
    await back.changed(meanwhile);
    expect(back.changes()[0]!.data.id).toBe(meanwhile);
  });

  it("delivers each other's changes across two server instances on one database", async () => {
    let second: RunningServer | undefined;
    try {
      second = await startAnotherInstance(srv.databaseUrl);
      const onSecond = stream(second.url, admin.apiKey.token);
      const onFirst = stream(srv.url, admin.apiKey.token);
      await Promise.all([onSecond.opened(), onFirst.opened()]);

      const viaFirst = uuid();
      await record(admin.workspace.id, [{ entity: "label", action: "created", id: viaFirst }]);
      await onSecond.changed(viaFirst);

      // A write through the second instance's HTTP API reaches the first instance's stream.
      await fetch(`${second.url}/api/v1/workspace`, {
        method: "PATCH",
        headers: { Authorization: `Bearer ${admin.apiKey.token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Renamed on the second instance" }),
      });
      const onA = await onFirst.changed(admin.workspace.id);
      const onB = await onSecond.changed(admin.workspace.id);
      expect(onA.id).toBe(onB.id);

      // Closing an instance ends its streams at once instead of holding shutdown open.
      const started = Date.now();
      await second.close();
      second = undefined;
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await second?.close();
    }
  });

  it("keeps streams to their workspace, and guests to their teams; personal spaces to their owner", async () => {
    const api = srv.client(admin.apiKey.token);
    const other = await srv.bootstrap();
    const guest = await srv.addMember(admin.apiKey.token, "guest");
    const member = await srv.addMember(admin.apiKey.token, "member");
    await api.POST("/teams/{key}/members", {
      params: { path: { key: "ENG" } },
      body: { userId: guest.userId },
    });
    const ops = (await api.POST("/teams", { body: { name: "Operations", key: "OPS" } })).data!.team;
    const personal = await srv.client(member.token).POST("/teams", {
      body: { name: "Mine", key: "MINE", personal: true },
    });
    const personalId = personal.data!.team.id;
    const eng = admin.team!;

    const adminStream = stream(srv.url, admin.apiKey.token);
    const guestStream = stream(srv.url, guest.token);
    const memberStream = stream(srv.url, member.token);
    await Promise.all([adminStream.opened(), guestStream.opened(), memberStream.opened()]);

    const ids = {
      otherWorkspace: uuid(),
      engIssue: uuid(),
      opsIssue: uuid(),
      personalIssue: uuid(),
      project: uuid(),
      label: uuid(),
    };
    await record(other.workspace.id, [{ entity: "label", action: "created", id: ids.otherWorkspace }]);
    await record(admin.workspace.id, [
      {
        entity: "issue",
        action: "created",
        id: ids.engIssue,
        identifier: "ENG-1",
        teamKey: "ENG",
        teamId: eng.id,
      },
      {
        entity: "issue",
        action: "created",
        id: ids.opsIssue,
        identifier: "OPS-1",
        teamKey: "OPS",
        teamId: ops.id,
      },
      {
        entity: "issue",
        action: "created",
        id: ids.personalIssue,
        identifier: "MINE-1",
        teamKey: "MINE",
        teamId: personalId,
      },
      { entity: "project", action: "created", id: ids.project },
    ]);
    const marker = ids.label;
    await record(admin.workspace.id, [{ entity: "label", action: "created", id: marker }]);
    await Promise.all([
      adminStream.changed(marker),
      guestStream.changed(marker),
      memberStream.changed(marker),
    ]);

    const got = (s: Stream) => new Set(s.changes().map((e) => e.data.id));
    const a = got(adminStream);
    expect([a.has(ids.engIssue), a.has(ids.opsIssue), a.has(ids.project)]).toEqual([true, true, true]);
    expect(a.has(ids.personalIssue)).toBe(false);
    expect(a.has(ids.otherWorkspace)).toBe(false);

    const g = got(guestStream);
    expect(g.has(ids.engIssue)).toBe(true);
    expect([
      g.has(ids.opsIssue),
      g.has(ids.personalIssue),
      g.has(ids.project),
      g.has(ids.otherWorkspace),
    ]).toEqual([false, false, false, false]);
    const engEvent = guestStream.changes().find((e) => e.data.id === ids.engIssue)!;
    expect(engEvent.data).toEqual({
      entity: "issue",
      action: "created",
      id: ids.engIssue,
      identifier: "ENG-1",
      teamKey: "ENG",
      at: expect.any(String),
    });

    const m = got(memberStream);
    expect([m.has(ids.personalIssue), m.has(ids.opsIssue), m.has(ids.otherWorkspace)]).toEqual([
      true,
      true,
      false,
    ]);

    // Joining a team mid-stream opens its changes to the guest (who hears that they joined).
    await api.POST("/teams/{key}/members", {
      params: { path: { key: "OPS" } },
      body: { userId: guest.userId },
    });
    await guestStream.changed(guest.userId, "created");
    const later = uuid();
    await record(admin.workspace.id, [
      { entity: "issue", action: "updated", id: later, identifier: "OPS-1", teamKey: "OPS", teamId: ops.id },
    ]);
    await guestStream.changed(later);
  });

  it("emits nothing for a rolled-back write", async () => {
    const s = stream(srv.url, admin.apiKey.token);
    await s.opened();
    const doomed = uuid();
    await expect(
      srv.running.orm.em.fork().transactional(async (em) => {
        await recordChanges(em, admin.workspace.id, [{ entity: "label", action: "created", id: doomed }]);
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    const marker = uuid();
    await record(admin.workspace.id, [{ entity: "label", action: "created", id: marker }]);
    await s.changed(marker);
    expect(s.changes().some((e) => e.data.id === doomed)).toBe(false);
    expect(await srv.query("select 1 from change_events where entity_id = $1", [doomed])).toEqual([]);
  });

  it("delivers changes that commit out of id order, none lost, in id order", async () => {
    const s = stream(srv.url, admin.apiKey.token);
    await s.opened();
    const early = uuid();
    const late = uuid();
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let recorded!: () => void;
    const inserted = new Promise<void>((r) => {
      recorded = r;
    });
    // The first transaction draws the smaller id but commits after the second one.
    const slow = srv.running.orm.em.fork().transactional(async (em) => {
      await recordChanges(em, admin.workspace.id, [{ entity: "label", action: "created", id: early }]);
      recorded();
      await held;
    });
    await inserted;
    await record(admin.workspace.id, [{ entity: "label", action: "created", id: late }]);
    await sleep(150);
    // Held back: handing out the larger id first would lose the smaller one for a client resuming after it.
    expect(s.changes().some((e) => e.data.id === late)).toBe(false);
    release();
    await slow;
    await s.changed(late);
    const order = s.changes().map((e) => e.data.id);
    expect(order.slice(-2)).toEqual([early, late]);
  });

  it("cuts off a removed member's stream at once, and closes a deleted key's stream", async () => {
    const api = srv.client(admin.apiKey.token);
    const member = await srv.addMember(admin.apiKey.token, "member");
    const s = stream(srv.url, member.token);
    await s.opened();
    const streamsBefore = srv.running.events.stats().streams;
    await api.DELETE("/members/{userId}", { params: { path: { userId: member.userId } } });
    // It hears its own removal, then the server ends the stream and the reconnect is refused (403).
    await s.changed(member.userId, "deleted");
    await s.until((x) => x.readyState === 2, "the stream to be closed for good");
    expect(srv.running.events.stats().streams).toBeLessThan(streamsBefore);
    const after = uuid();
    await record(admin.workspace.id, [{ entity: "label", action: "created", id: after }]);
    await sleep(100);
    expect(s.changes().some((e) => e.data.id === after)).toBe(false);

    const key = (await api.POST("/api-keys", { body: { name: "stream key", scope: "account" } })).data!.key;
    const keyed = stream(srv.url, key.token);
    await keyed.opened();
    await api.DELETE("/api-keys/{id}", { params: { path: { id: key.id } } });
    await keyed.until((x) => x.readyState === 2, "the deleted key's stream to close");
  });

  it("sends `reset` for an id older than what is kept, then carries on live", async () => {
    const ws = admin.workspace.id;
    const s = stream(srv.url, admin.apiKey.token);
    await s.opened();
    const old = uuid();
    await record(ws, [{ entity: "label", action: "created", id: old }]);
    const oldEvent = await s.changed(old);
    s.close();
    await srv.query(
      "update change_events set created_at = now() - interval '48 hours' where entity_id = $1",
      [old],
    );
    expect(await srv.running.events.prune()).toBeGreaterThanOrEqual(1);
    expect(await srv.query("select 1 from change_events where entity_id = $1", [old])).toEqual([]);

    const resumed = stream(srv.url, admin.apiKey.token, { lastEventId: oldEvent.id });
    await resumed.until((x) => x.events.some((e) => e.event === "reset"), "reset");
    // Pings (every 150 ms here) may fall anywhere; the order of the rest is the point.
    const sequence = resumed.events.map((e) => e.event).filter((e) => e !== "ping");
    expect(sequence.slice(0, 2)).toEqual(["connected", "reset"]);
    const live = uuid();
    await record(ws, [{ entity: "label", action: "created", id: live }]);
    await resumed.changed(live);

    const garbage = stream(srv.url, admin.apiKey.token, { lastEventId: "not-an-id" });
    await garbage.until((x) => x.events.some((e) => e.event === "reset"), "reset for a malformed id");
  });

  it("closes a client that stops reading once its buffer passes the limit; it resumes by id", async () => {
    // A workspace of its own: the other tests' streams need not carry these 12 MB.
    const own = await srv.bootstrap();
    const ws = own.workspace.id;
    // A plain HTTP client that stops reading: once paused, Node stops reading the socket too.
    let received = "";
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(
          `${srv.url}/api/v1/events`,
          { headers: { Authorization: `Bearer ${own.apiKey.token}` } },
          resolve,
        )
        .on("error", reject);
    });
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      received += chunk;
    });
    const deadline = Date.now() + 5_000;
    while (!received.includes("event: connected") && Date.now() < deadline) await sleep(10);
    const streams = srv.running.events.stats().streams;
    res.pause();

    // About 12 MB of events, far more than the socket buffers hold; each identifier is shaped as the
    // contract's `ChangeEvent` has it (`ENG-1000…`), since every event a stream receives is checked.
    await srv.query(
      `with ins as (insert into change_events (workspace_id, entity, action, entity_id, identifier, created_at)
                    select $1, 'issue', 'updated', gen_random_uuid()::text, 'ENG-1' || repeat('0', 8000), now()
                      from generate_series(1, 1500) returning 1)
       select pg_notify('tracker_changes', $1::text) from (select count(*) from ins) n`,
      [ws],
    );
    const waitClosed = Date.now() + 10_000;
    while (srv.running.events.stats().streams >= streams && Date.now() < waitClosed) await sleep(20);
    expect(srv.running.events.stats().streams).toBe(streams - 1);

    const ended = new Promise<void>((r) => res.once("end", () => r()));
    res.resume();
    await ended;
    expect(received).toContain(
      ": closing: this client is too far behind; reconnect with Last-Event-ID to resume",
    );
    const ids = [...received.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    const lastId = ids[ids.length - 1]!;
    const total = await srv.query<{ n: string }>(
      "select count(*) as n from change_events where workspace_id = $1 and id > $2",
      [ws, lastId],
    );
    expect(Number(total[0]!.n)).toBeGreaterThan(0);

    // Resuming from the last id received continues with the very next event.
    const [next] = await srv.query<{ id: string }>(
      "select e.id::text as id from change_events e where e.workspace_id = $1 and e.id > $2 order by e.id limit 1",
      [ws, lastId],
    );
    const resumed = stream(srv.url, own.apiKey.token, { lastEventId: String(lastId) });
    await resumed.until((x) => x.changes().length > 0, "the replay after the slow close");
    expect(resumed.changes()[0]!.id).toBe(next!.id);
    resumed.close();
  });

  it("reconnects its LISTEN connection and catches up on what it missed", async () => {
    const s = stream(srv.url, admin.apiKey.token);
    await s.opened();
    await srv.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'tracker-events' and datname = current_database()",
    );
    const during = uuid();
    await record(admin.workspace.id, [{ entity: "label", action: "created", id: during }]);
    await s.changed(during);
    await s.until(() => srv.running.events.stats().listening, "the LISTEN connection to be back");
    const after = uuid();
    await record(admin.workspace.id, [{ entity: "label", action: "created", id: after }]);
    await s.changed(after);
  });
});
