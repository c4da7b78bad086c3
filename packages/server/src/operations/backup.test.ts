import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "../test/databases.js";
import { privateFolder } from "../test/operations-kit.js";
import { type ServerProcess, serverDist, startServerProcess } from "../test/server-process.js";
import { spawnLogged } from "../test/spawn-logged.js";

const { root, onCleanup } = privateFolder("backup");

/** Runs the built `backup` or `restore` command as `npm run backup -- FILE` does. */
async function command(script: "backup" | "restore", file: string, env: Record<string, string>) {
  const run = spawnLogged(process.execPath, [path.join(serverDist, `${script}.js`), file], {
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
  });
  return { code: await run.exited, output: run.log() };
}

function api(server: ServerProcess, key: string) {
  return async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route} → ${res.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
}

/** Reads that show every kind of thing a workspace holds. */
const SAMPLE_READS = [
  "/workspaces",
  "/users",
  "/teams",
  "/teams/all",
  "/teams/OPS/members",
  "/projects",
  "/initiatives",
  "/labels",
  "/documents",
  "/views",
  "/view-defaults",
  "/cycles?team=ENG",
  "/updates?team=ENG",
  "/api-keys",
  "/invites",
  "/issues/ENG-1",
  "/issues/ENG-2/page-data",
  "/issues/ENG-2/comments",
  "/issues/ENG-1/relations",
];

/** A key's `lastUsedAt` moves with every call that reads it; the rest of an answer is compared as it is. */
function withoutUse(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (k, v) => (k === "lastUsedAt" ? undefined : v));
}

describe("backup and restore", { timeout: 240_000 }, () => {
  const dataDir = path.join(root, "source");
  const file = path.join(root, "tracker.backup");
  let source: ServerProcess;
  let call: ReturnType<typeof api>;
  let key: string;
  const acknowledgedBefore: string[] = [];
  const snapshot: Record<string, unknown> = {};

  it("backs up a running install while writers run, in one snapshot", async () => {
    source = await startServerProcess({ TRACKER_DATA_DIR: dataDir, NODE_ENV: "development" });
    onCleanup(() => source.stop());
    key = source.demoKey!;
    call = api(source, key);
    // One of every kind of thing, so the restore has them all to give back.
    await call("POST", "/teams", { name: "Operations", key: "OPS" });
    const project = (await call("POST", "/projects", { name: "Launch", teams: ["ENG"] })).project as {
      id: string;
    };
    await call("POST", "/initiatives", { name: "Grow" });
    await call("PATCH", "/teams/ENG", { cyclesEnabled: true });
    await call("POST", "/cycles", { team: "ENG" });
    await call("POST", "/documents", { title: "Runbook", team: "ENG", content: "# Steps" });
    await call("POST", "/updates", { title: "Week 1", content: "On track", project: project.id });
    await call("POST", "/views", { name: "Bugs", filters: { label: ["Bug"] } });
    await call("POST", "/invites", { email: "sam@example.com" });
    const extraKey = ((await call("POST", "/api-keys", { name: "ci" })).key as { token: string }).token;

    let writing = true;
    let during = 0;
    const writers = Array.from({ length: 4 }, (_, w) =>
      (async () => {
        for (let i = 0; writing; i++) {
          const issue = (await call("POST", "/issues", { team: "ENG", title: `backup writer ${w} #${i}` }))
            .issue as { identifier: string };
          if (during === 0) acknowledgedBefore.push(issue.identifier);
        }
      })(),
    );
    while (acknowledgedBefore.length < 40) await new Promise((resolve) => setTimeout(resolve, 20));
    during = 1;
    const backup = await command("backup", file, { TRACKER_DATA_DIR: dataDir });
    writing = false;
    await Promise.all(writers);
    expect(backup.output).toMatch(/^Backed up \d+ rows in \d+ tables, as of \S+Z, to /);
    expect(backup.code).toBe(0);

    for (const route of SAMPLE_READS) snapshot[route] = withoutUse(await call("GET", route));
    snapshot.extraKey = extraKey;
    expect(existsSync(`${file}.partial-${process.pid}`)).toBe(false);
  });

  it("restores into a fresh folder: a server there answers as the source did, identifiers go on, keys work", async () => {
    const restoredDir = path.join(root, "restored");
    const restore = await command("restore", file, { TRACKER_DATA_DIR: restoredDir });
    expect(restore.output).toMatch(/^Restored \d+ rows in \d+ tables/);
    expect(restore.code).toBe(0);
    const restored = await startServerProcess({ TRACKER_DATA_DIR: restoredDir, NODE_ENV: "production" });
    onCleanup(() => restored.stop());
    const there = api(restored, key);

    // Nothing was written to the sampled things after the backup: they read the same.
    for (const route of SAMPLE_READS)
      expect(withoutUse(await there("GET", route)), route).toEqual(snapshot[route]);
    // A key made before the backup works too.
    await api(restored, snapshot.extraKey as string)("GET", "/users");

    // Every issue acknowledged before the backup began is there, and each restored issue is the source's.
    const issues: { identifier: string }[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const page = (await there("GET", `/issues?team=ENG&limit=200&offset=${offset}`)) as {
        issues: { identifier: string }[];
        nextOffset: number | null;
      };
      issues.push(...page.issues);
      offset = page.nextOffset;
    }
    const identifiers = new Set(issues.map((i) => i.identifier));
    for (const identifier of acknowledgedBefore) expect(identifiers).toContain(identifier);
    for (const issue of issues.slice(0, 30))
      expect(await there("GET", `/issues/${issue.identifier}`)).toEqual(
        await call("GET", `/issues/${issue.identifier}`),
      );

    // New issues are numbered after every restored one: no identifier is given twice.
    const top = Math.max(...[...identifiers].map((i) => Number(i.split("-")[1])));
    const fresh = (
      (await there("POST", "/issues", { team: "ENG", title: "After the restore" })).issue as {
        identifier: string;
      }
    ).identifier;
    expect(identifiers).not.toContain(fresh);
    expect(Number(fresh.split("-")[1])).toBeGreaterThan(top);
  });

  it("restores into an empty database named by DATABASE_URL, and refuses one that is not empty", async () => {
    const url = await freshDatabase(`restore_${process.pid}`, "empty");
    const first = await command("restore", file, { DATABASE_URL: url });
    expect(first.code).toBe(0);
    const again = await command("restore", file, { DATABASE_URL: url });
    expect(again.output).toMatch(/restore refused: the database is not empty/);
    expect(again.code).toBe(2);
  });

  it("refuses a damaged, truncated or foreign file, or a folder that is not empty, before touching anything", async () => {
    const whole = readFileSync(file);
    const cases: [string, Buffer, RegExp][] = [
      ["truncated", whole.subarray(0, Math.floor(whole.length / 2)), /damaged or truncated/],
      ["cut at the end", whole.subarray(0, whole.length - 8), /damaged or truncated/],
      ["foreign", Buffer.from("name,email\nada,ada@example.com\n"), /not a Tracker backup/],
      ["foreign gzip", gzipSync("hello"), /not a Tracker backup/],
      ["another format", gzipSync("TRACKER-BACKUP 2\n{}\n"), /not a Tracker backup/],
    ];
    const damaged = Buffer.from(whole);
    damaged[Math.floor(whole.length / 2)]! ^= 0xff;
    cases.push(["damaged", damaged, /damaged|unexpected|rows and/]);
    for (const [name, bytes, why] of cases) {
      const bad = path.join(root, `${name}.backup`);
      writeFileSync(bad, bytes);
      const target = path.join(root, `target-${name.replace(/ /g, "-")}`);
      const result = await command("restore", bad, { TRACKER_DATA_DIR: target });
      expect(result.output, name).toMatch(why);
      expect(result.code, name).toBe(2);
      expect(existsSync(target), name).toBe(false);
    }
    // A folder with something in it is left alone.
    copyFileSync(file, path.join(root, "kept.backup"));
    const occupied = await command("restore", path.join(root, "kept.backup"), { TRACKER_DATA_DIR: dataDir });
    expect(occupied.output).toMatch(/is not empty; restore into a new or empty folder/);
    expect(occupied.code).toBe(2);
  });
});
