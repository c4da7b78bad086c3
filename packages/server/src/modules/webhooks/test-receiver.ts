import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request a {@link TestReceiver} got. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * A local HTTP endpoint for webhook tests and the bench: records every request, and answers each path as
 * told (status, body, delay); 200 by default.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  private readonly behaviour = new Map<
    string,
    { status: number; body?: string; delayMs?: number; location?: string }
  >();
  private server: http.Server | undefined;
  url = "";

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const path = req.url ?? "/";
        this.received.push({
          path,
          headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks).toString("utf8"),
          at: Date.now(),
        });
        const how = this.behaviour.get(path) ?? { status: 200 };
        const answer = () => {
          if (res.destroyed) return;
          res.writeHead(how.status, how.location ? { location: how.location } : {});
          res.end(how.body ?? "ok");
        };
        if (how.delayMs) setTimeout(answer, how.delayMs);
        else answer();
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** How to answer requests to `path`. */
  answer(path: string, how: { status: number; body?: string; delayMs?: number; location?: string }): void {
    this.behaviour.set(path, how);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** Waits until `check` holds (polling), or fails naming `what`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 15_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
