/**
 * The scale-out check (`npm run check:scale-out`; `.ci/run` installs HAProxy and runs it after the tests):
 * PostgreSQL, two server instances and HAProxy with `deploy/haproxy.cfg`, all on the loopback. Writers and an
 * event stream go through the balancer while one instance is killed with SIGKILL and the other is later
 * restarted gracefully (SIGTERM). Clients must see no 5xx but 503 with Retry-After, every acknowledged write
 * exactly once, the stream resumed without missing a change, and the service back within seconds. Files go to
 * an S3-compatible store (s3rver, started here) as several instances need: one uploaded through the balancer
 * downloads from each instance with the link it was given.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createTracker } from "@tracker/sdk";
import S3rver from "s3rver";
import { describe, expect, it } from "vitest";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../db/embedded-postgres.js";
import { freePort } from "../test/free-port.js";
import { createdIssuesStream, privateFolder, until } from "../test/operations-kit.js";
import {
  recordingFetch,
  type ServerProcess,
  serverDist,
  startServerProcess,
} from "../test/server-process.js";
import { spawnLogged } from "../test/spawn-logged.js";

const haproxy = spawnSync("haproxy", ["-v"], { encoding: "utf8" }).status === 0;
if (!haproxy) console.log("scale-out check skipped: haproxy is not installed (apt-get install haproxy)");

const repo = path.resolve(serverDist, "../../..");
const { root, onCleanup } = privateFolder("scale-out");

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`)).status === 200;
  } catch {
    return false;
  }
}

/** `deploy/haproxy.cfg` as an operator has it, with this run's ports put in. */
function balancerConfig(listen: number, ports: number[]): string {
  const shipped = readFileSync(path.join(repo, "deploy", "haproxy.cfg"), "utf8");
  const servers = ports.map((p, i) => `    server tracker${i + 1} 127.0.0.1:${p} check`).join("\n");
  const config = shipped
    .replace(/^ {4}bind :8080$/m, `    bind 127.0.0.1:${listen}`)
    .replace(/(^ {4}server tracker\d+ .*\n?)+/m, `${servers}\n`);
  if (!config.includes(`127.0.0.1:${listen}`) || !config.includes(servers))
    throw new Error("deploy/haproxy.cfg no longer has the bind and server lines this check rewrites");
  return config;
}

describe.skipIf(!haproxy)("two instances behind HAProxy on one PostgreSQL", { timeout: 300_000 }, () => {
  it("lose one to SIGKILL and restart the other gracefully without losing, doubling or failing a write", async () => {
    const pg: EmbeddedPostgres = await startEmbeddedPostgres({
      dataDir: path.join(root, "pg"),
      durable: true,
    });
    onCleanup(() => pg.stop());
    const setup = spawnLogged(
      process.execPath,
      [path.join(serverDist, "setup.js"), "--workspace", "Acme", "--email", "ada@acme.test", "--name", "Ada"],
      { env: { ...process.env, DATABASE_URL: pg.url, LOG_LEVEL: "warn" } },
    );
    expect(await setup.exited).toBe(0);
    const apiKey = (JSON.parse(setup.log()) as { apiKey: { token: string } }).apiKey.token;

    // The instances' shared file store, as `TRACKER_S3_*` configures it.
    const s3Port = await freePort();
    const s3 = new S3rver({
      address: "127.0.0.1",
      port: s3Port,
      silent: true,
      directory: path.join(root, "s3"),
      configureBuckets: [{ name: "tracker-files", configs: [] }],
    });
    await s3.run();
    onCleanup(() => s3.close());
    const files = {
      TRACKER_S3_BUCKET: "tracker-files",
      TRACKER_S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      TRACKER_S3_ACCESS_KEY_ID: "S3RVER",
      TRACKER_S3_SECRET_ACCESS_KEY: "S3RVER",
      TRACKER_S3_FORCE_PATH_STYLE: "true",
      TRACKER_URL_SECRET: "scale-out-url-secret",
    };

    const ports = [await freePort(), await freePort()];
    const instances: ServerProcess[] = [];
    const start = async (i: number) => {
      instances[i] = await startServerProcess({
        DATABASE_URL: pg.url,
        PORT: String(ports[i]),
        NODE_ENV: "production",
        // HAProxy is on the loopback: its X-Forwarded-For and -Proto are the client's (README, "Security").
        TRACKER_TRUSTED_PROXIES: "127.0.0.1",
        ...files,
      });
      const started = instances[i]!;
      onCleanup(() => started.stop());
    };
    await start(0);
    await start(1);

    const listen = await freePort();
    const configFile = path.join(root, "haproxy.cfg");
    writeFileSync(configFile, balancerConfig(listen, ports));
    const balancer = spawnLogged("haproxy", ["-db", "-f", configFile], {});
    onCleanup(() => balancer.child.kill("SIGKILL"));
    const base = `http://127.0.0.1:${listen}`;
    await until(() => healthy(base), "the balancer to answer").catch((err) => {
      throw new Error(`${(err as Error).message}; haproxy said:\n${balancer.log()}`);
    });

    const recorder = recordingFetch();
    const tracker = createTracker({ baseUrl: base, apiKey, fetch: recorder.fetch });
    await tracker.teams.create({ name: "Engineering", key: "ENG" });

    // The stream, through the balancer, as a board holds it.
    const stream = createdIssuesStream(base, apiKey);
    await until(() => stream.connections === 1, "the stream to open");

    const acknowledged = new Map<string, string>();
    const ackTimes: number[] = [];
    const failed: unknown[] = [];
    let writing = true;
    const writers = Array.from({ length: 8 }, (_, w) =>
      (async () => {
        for (let i = 0; writing; i++) {
          const title = `scale-out writer ${w} #${i}`;
          try {
            acknowledged.set(title, (await tracker.issues.create({ team: "ENG", title })).identifier);
            ackTimes.push(Date.now());
          } catch (err) {
            failed.push(err);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      })(),
    );
    const moreWrites = async (n: number, what: string) => {
      const target = acknowledged.size + n;
      await until(() => acknowledged.size >= target, what);
    };

    await moreWrites(150, "writes through both instances");
    instances[0]!.child.kill("SIGKILL");
    await instances[0]!.exited;
    await moreWrites(150, "writes after an instance was killed");
    await start(0);
    await until(() => healthy(instances[0]!.url), "the killed instance to come back");
    // A rolling restart waits for the balancer to take the instance back before stopping the next one.
    const seen = new Set<string>();
    await until(async () => {
      seen.add((await fetch(`${base}/health`)).headers.get("x-tracker-instance") ?? "");
      return seen.has("tracker1") && seen.has("tracker2");
    }, "the balancer to send requests to both instances again");
    await moreWrites(100, "writes with both instances again");
    expect(await instances[1]!.stop()).toBe(0);
    await moreWrites(100, "writes while the other instance restarts");
    await start(1);
    await moreWrites(100, "writes after the graceful restart");
    writing = false;
    await Promise.all(writers);

    // Clients saw no 5xx but 503 with Retry-After, and no write failed for good.
    for (const a of recorder.answers.filter((x) => x.status >= 500))
      expect(a, "a 5xx that is not 503 with Retry-After").toMatchObject({ status: 503, retryAfter: "1" });
    expect(failed).toEqual([]);
    // Service came back within seconds: no pause between acknowledged writes longer than 5 s.
    const gaps = ackTimes.slice(1).map((t, i) => t - ackTimes[i]!);
    expect(Math.max(...gaps)).toBeLessThan(5_000);
    const seconds = (ackTimes.at(-1)! - ackTimes[0]!) / 1000;
    console.log(
      `scale-out: ${acknowledged.size} writes in ${seconds.toFixed(1)} s (${(acknowledged.size / seconds).toFixed(0)}/s ` +
        `through the balancer), ${recorder.answers.filter((a) => a.status === 503).length} answered 503 ` +
        `and resent, longest pause between writes ${Math.max(...gaps)} ms, stream connections ${stream.connections}`,
    );

    // Every acknowledged write is there exactly once.
    const titles = new Map<string, string[]>();
    for await (const issue of tracker.issues.iterate({ team: "ENG", limit: 200 }))
      titles.set(issue.title, [...(titles.get(issue.title) ?? []), issue.identifier]);
    for (const [title, identifier] of acknowledged) expect(titles.get(title), title).toEqual([identifier]);
    for (const [title, found] of titles) expect(found, title).toHaveLength(1);

    // The stream moved to a surviving instance and missed no change, each change once and in order.
    await until(
      () => [...acknowledged.values()].every((id) => stream.created.has(id)),
      "every write on the stream",
    );
    expect(stream.connections).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < stream.ids.length; i++) expect(stream.ids[i]).toBeGreaterThan(stream.ids[i - 1]!);
    await stream.close();

    // A file uploaded through the balancer is in the shared store: each instance serves it by its link.
    const bytes = Buffer.from("stack trace from the scale-out check\n".repeat(2_000));
    const [first] = acknowledged.values();
    const media = await tracker.issues.attach(first!, bytes, { filename: "trace.log" });
    for (const instance of instances) {
      const got = await fetch(new URL(media.url, instance.url));
      expect(got.status, instance.url).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(bytes), instance.url).toBe(true);
    }
  });
});
