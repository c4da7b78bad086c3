/**
 * A real EventSource client of the live event stream (openapi.yaml, `GET /events`), as a browser or the SDK
 * meets it: the key in Authorization, optionally a first Last-Event-ID or a workspace, every event kept.
 */
import { EventSource } from "eventsource";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Received {
  event: string;
  id: string;
  data: Record<string, unknown>;
}

/** A real EventSource client with the key in Authorization (and optionally a first Last-Event-ID). */
export class Stream {
  readonly events: Received[] = [];
  errors = 0;
  private readonly es: EventSource;

  constructor(url: string, token: string, opts: { lastEventId?: string; workspace?: string } = {}) {
    const query = opts.workspace ? `?workspace=${encodeURIComponent(opts.workspace)}` : "";
    this.es = new EventSource(`${url}/api/v1/events${query}`, {
      fetch: (input, init) => {
        const headers: Record<string, string> = {
          ...(init?.headers as Record<string, string>),
          Authorization: `Bearer ${token}`,
        };
        if (opts.lastEventId !== undefined && !headers["Last-Event-ID"])
          headers["Last-Event-ID"] = opts.lastEventId;
        return fetch(input, { ...init, headers });
      },
    });
    for (const name of ["connected", "changed", "ping", "reset"]) {
      this.es.addEventListener(name, (e) => {
        this.events.push({ event: name, id: e.lastEventId, data: JSON.parse(e.data) });
      });
    }
    this.es.addEventListener("error", () => {
      this.errors++;
    });
  }

  get readyState() {
    return this.es.readyState;
  }

  changes(): Received[] {
    return this.events.filter((e) => e.event === "changed");
  }

  /** The bodies of the `changed` events so far (`{entity, action, id, identifier?}`). */
  changeBodies(): Record<string, unknown>[] {
    return this.changes().map((e) => e.data);
  }

  /** Waits until the events seen so far satisfy `check`. */
  async until(check: (s: Stream) => boolean, what: string, ms = 8_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check(this)) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.events.slice(-8))}`);
      await sleep(10);
    }
  }

  async opened(): Promise<void> {
    await this.until((s) => s.events.some((e) => e.event === "connected"), "connected");
  }

  /** Waits for a `changed` event about object `id` and returns it. */
  async changed(id: string, action?: string): Promise<Received> {
    const match = (e: Received) =>
      e.event === "changed" && e.data.id === id && (!action || e.data.action === action);
    await this.until((s) => s.events.some(match), `changed ${action ?? ""} ${id}`);
    return this.events.find(match)!;
  }

  close(): void {
    this.es.close();
  }
}
