/**
 * Many writers at once over one small workspace: issue edits, moves between teams, relations, labels
 * created, merged and deleted, projects changing teams and moving to another workspace, initiatives (moving
 * too), cycles, documents, status updates, a team created and deleted, each by an admin, a member or a guest.
 * Whatever order they land in, no request may answer 5xx, and afterwards every invariant of the data holds
 * and every counter kept by triggers equals a fresh count. The choices are drawn from a seeded generator
 * (`SWEEP_SEED=<n>` draws another set); the interleaving is whatever the machine makes of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  driftedBlockers,
  driftedLabelIds,
  driftedProjectCounts,
  driftedProjectTeamIds,
} from "../test/derived-counts.js";
import { startTestServer, type TestServer } from "../test/harness.js";
import { brokenInvariants } from "../test/invariants.js";

type Json = Record<string, unknown>;

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

/** mulberry32: a small seeded generator, so a failing run's choices can be replayed. */
function generator(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("concurrent writers", () => {
  it("never get a 5xx, and leave every invariant and counter exact", async () => {
    const boot = await srv.bootstrap({ team: { key: "CA", name: "Chaos A" } });
    const other = await srv.bootstrap({
      email: boot.user.email,
      name: boot.user.name,
      team: { key: "OX", name: "X" },
    });
    const headers = (token: string) => ({
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "x-service-workspace": boot.workspace.slug,
    });
    const admin = headers(boot.apiKey.token);
    const call = async (h: Record<string, string>, method: string, path: string, body?: Json) => {
      const res = await fetch(`${srv.url}/api/v1${path}`, {
        method,
        headers: h,
        body: body && JSON.stringify(body),
      });
      const text = await res.text();
      return {
        status: res.status,
        text,
        json: res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null,
      };
    };
    const make = async (path: string, body: Json) => {
      const res = await call(admin, "POST", path, body);
      if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${res.text.slice(0, 200)}`);
      return Object.values(res.json as Json)[0] as Json & { id: string };
    };

    const member = await srv.addMember(boot.apiKey.token, "member");
    const guest = await srv.addMember(boot.apiKey.token, "guest");
    await make("/teams", { key: "CB", name: "Chaos B" });
    for (const key of ["CA", "CB"]) await call(admin, "PATCH", `/teams/${key}`, { cyclesEnabled: true });
    await call(admin, "POST", "/teams/CA/members", { userId: guest.userId });
    const callers = [admin, admin, headers(member.token), headers(guest.token)];
    const teams = ["CA", "CB"];
    const labels = ["bug", "ui", "perf", "docs"];
    const projects: string[] = [];
    for (const [i, t] of [["CA"], ["CB"], ["CA", "CB"]].entries())
      projects.push((await make("/projects", { name: `P${i}`, teams: t })).id);
    const initiative = (await make("/initiatives", { name: "Grow" })).id;
    const identifiers: string[] = [];
    for (let i = 0; i < 12; i++)
      identifiers.push(
        ((await make("/issues", { team: teams[i % 2], title: `Work ${i}`, labels: [labels[i % 4]] })) as Json)
          .identifier as string,
      );
    const documents = [
      (await make("/documents", { title: "Spec", team: "CA" })).id,
      (await make("/documents", { title: "Plan", team: "CB" })).id,
    ];

    const random = generator(Number(process.env.SWEEP_SEED ?? 20261121));
    const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
    const states = ["Backlog", "Todo", "In Progress", "Done", "Canceled"];
    type LabelRow = { id: string; name: string };
    const labelIds = async (h: Record<string, string>): Promise<LabelRow[]> =>
      (((await call(h, "GET", "/labels")).json?.labels ?? []) as LabelRow[]).filter((l) =>
        labels.includes(l.name),
      );
    const ops: ((h: Record<string, string>) => Promise<{ status: number; text: string }>)[] = [
      (h) =>
        call(h, "PATCH", `/issues/${pick(identifiers)}`, {
          state: pick(states),
          project: pick([...projects, null]),
          labels: [...new Set([pick(labels), pick(labels)])],
        }),
      (h) =>
        call(h, "PATCH", `/issues/${pick(identifiers)}`, {
          cycle: pick(["current", 1, 2, null]),
          assignee: pick(["me", null]),
          parent: pick([...identifiers, null]),
        }),
      (h) =>
        call(h, "POST", "/issues/move", {
          identifiers: [...new Set([pick(identifiers), pick(identifiers)])],
          team: pick([...teams, "CE"]),
        }),
      (h) =>
        call(h, "POST", `/issues/${pick(identifiers)}/relations`, {
          type: pick(["blocks", "related", "duplicate"]),
          issue: pick(identifiers),
        }),
      (h) => call(h, "POST", `/issues/${pick(identifiers)}/comments`, { body: "On it" }),
      (h) =>
        call(h, "POST", "/issues", {
          team: pick(teams),
          title: "New",
          project: pick(projects),
          labels: [pick(labels)],
        }),
      async (h) => {
        const [a, b] = [pick(await labelIds(h)), pick(await labelIds(h))];
        return a && b ? call(h, "POST", `/labels/${a.id}/merge`, { into: b.id }) : { status: 0, text: "" };
      },
      async (h) => {
        const a = pick(await labelIds(h));
        return a ? call(h, "DELETE", `/labels/${a.id}`) : { status: 0, text: "" };
      },
      (h) =>
        call(h, "PATCH", `/projects/${pick(projects)}`, {
          teams: pick([["CA"], ["CB"], teams]),
          status: pick(["planned", "started", "paused", "completed"]),
          initiative: pick([initiative, null]),
        }),
      (h) =>
        call(h, "POST", `/projects/${pick(projects)}/move`, { workspace: other.workspace.slug, team: "OX" }),
      (h) =>
        call(h, "POST", `/initiatives/${initiative}/move`, { workspace: other.workspace.slug, team: "OX" }),
      (h) => call(h, "POST", "/cycles", { team: pick(teams) }),
      async (h) => {
        const cycle = pick((await call(h, "GET", `/cycles?team=${pick(teams)}`)).json?.cycles ?? []) as
          | Json
          | undefined;
        return cycle ? call(h, "DELETE", `/cycles/${cycle.id}`) : { status: 0, text: "" };
      },
      (h) =>
        call(h, "PATCH", `/documents/${pick(documents)}`, { team: pick(teams), issues: [pick(identifiers)] }),
      (h) =>
        call(h, "POST", "/updates", {
          project: pick(projects),
          title: "Week",
          content: "Fine",
          issues: [pick(identifiers)],
        }),
      (h) => call(h, "POST", "/teams", { key: "CE", name: "Extra" }),
      (h) => call(h, "DELETE", "/teams/CE"),
    ];

    const statuses: Record<number, number> = {};
    const failures: string[] = [];
    const plan = Array.from({ length: 480 }, () => ({ op: pick(ops), as: pick(callers) }));
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < plan.length) {
          const { op, as } = plan[next++]!;
          const res = await op(as);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.status >= 500) failures.push(res.text.slice(0, 200));
        }
      }),
    );
    expect(failures).toEqual([]);
    // The run did real work, not only refusals.
    expect((statuses[200] ?? 0) + (statuses[201] ?? 0)).toBeGreaterThan(80);
    expect(await brokenInvariants(srv)).toEqual({});
    expect(await driftedProjectCounts(srv)).toEqual([]);
    expect(await driftedBlockers(srv)).toEqual([]);
    expect(await driftedLabelIds(srv)).toEqual([]);
    expect(await driftedProjectTeamIds(srv)).toEqual([]);
  }, 120_000);
});
