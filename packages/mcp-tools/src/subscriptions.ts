import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ErrorCode,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Schemas } from "@tracker/sdk";
import type { ToolDeps } from "./deps.js";
import { toolFailure } from "./errors.js";

type Change = Schemas["ChangeEvent"];

/** What a subscribed URI watches, resolved once at subscribe time so renames and moves still match. */
type Target =
  | { kind: "issue"; id: string; identifier: string }
  | { kind: "project"; id: string }
  | { kind: "team"; id: string | undefined; key: string };

// The URIs a subscription may name: the issue, project and team resources (and a team's issues in one
// state, which change with the team's issues).
const ISSUE_URI = /^tracker:\/\/issues\/([^/?#]+)$/;
const PROJECT_URI = /^tracker:\/\/projects\/([^/?#]+)$/;
const TEAM_URI = /^tracker:\/\/teams\/([^/?#]+)(\/states\/[^/?#]+)?$/;

const ISSUE_SCOPED = new Set(["issue", "comment", "issue_relation", "issue_link"]);

/**
 * `resources/subscribe` for issues, projects and teams, fed by the workspace's event stream
 * (`tracker.events.stream`, which resumes with Last-Event-ID after a drop). The stream is opened on the
 * first subscription and closed with the last one or with the session.
 */
export class ResourceSubscriptions {
  private readonly targets = new Map<string, Target>();
  private stream: AbortController | undefined;
  /** Settles once the stream is open (its `connected` event) or has failed. */
  private streamReady: Promise<void> | undefined;

  constructor(
    private readonly server: McpServer,
    private readonly deps: ToolDeps,
  ) {}

  /** Installs the subscribe and unsubscribe handlers; the server must declare `resources.subscribe`. */
  install(): void {
    this.server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      await this.subscribe(request.params.uri);
      return {};
    });
    this.server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      this.unsubscribe(request.params.uri);
      return {};
    });
    const previous = this.server.server.onclose;
    this.server.server.onclose = () => {
      this.close();
      previous?.();
    };
  }

  get size(): number {
    return this.targets.size;
  }

  async subscribe(uri: string): Promise<void> {
    const target = await this.resolve(uri);
    this.targets.set(uri, target);
    // Answer once the stream is open: a change committed after the answer then always reaches the agent
    // (a stream opened later would start after it).
    await this.ensureStream();
  }

  unsubscribe(uri: string): void {
    this.targets.delete(uri);
    if (this.targets.size === 0) this.stopStream();
  }

  close(): void {
    this.targets.clear();
    this.stopStream();
  }

  private async resolve(uri: string): Promise<Target> {
    const opts = { timeoutMs: this.deps.timeoutMs };
    const { tracker } = this.deps;
    try {
      const issue = ISSUE_URI.exec(uri);
      if (issue) {
        const found = await tracker.issues.get(decodeURIComponent(issue[1]!), opts);
        return { kind: "issue", id: found.id, identifier: found.identifier };
      }
      const project = PROJECT_URI.exec(uri);
      if (project) {
        const page = await tracker.projects.pageData(decodeURIComponent(project[1]!), opts);
        return { kind: "project", id: page.project.id };
      }
      const team = TEAM_URI.exec(uri);
      if (team) {
        const key = decodeURIComponent(team[1]!).toUpperCase();
        const all = await tracker.teams.listAll(opts);
        const found = all.find((t) => t.key.toUpperCase() === key || t.id === key);
        if (!found)
          throw new McpError(
            ErrorCode.InvalidParams,
            `No team ${key}. Teams: ${all.map((t) => t.key).join(", ")}.`,
          );
        return { kind: "team", id: found.id, key: found.key };
      }
    } catch (err) {
      if (err instanceof McpError) throw err;
      const failure = await toolFailure(err, this.deps);
      throw new McpError(
        ErrorCode.InvalidParams,
        failure.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"),
      );
    }
    throw new McpError(
      ErrorCode.InvalidParams,
      `Cannot subscribe to ${uri}: subscribe to tracker://issues/<identifier>, tracker://projects/<name> or tracker://teams/<key>.`,
    );
  }

  private ensureStream(): Promise<void> {
    if (this.stream) return this.streamReady ?? Promise.resolve();
    const controller = new AbortController();
    this.stream = controller;
    let opened: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      opened = resolve;
    });
    this.streamReady = ready;
    void this.follow(controller, opened).finally(() => {
      opened();
      if (this.stream === controller) {
        this.stream = undefined;
        this.streamReady = undefined;
      }
    });
    return ready;
  }

  private stopStream(): void {
    this.stream?.abort();
    this.stream = undefined;
    this.streamReady = undefined;
  }

  private async follow(controller: AbortController, opened: () => void): Promise<void> {
    try {
      for await (const event of this.deps.tracker.events.stream({ signal: controller.signal })) {
        opened();
        if (event.event === "reset") {
          // Changes may have been missed: every subscribed resource may have changed.
          for (const uri of this.targets.keys()) await this.notify(uri);
        } else if (event.event === "changed") {
          await this.dispatch(event.data as Change);
        }
      }
    } catch (err) {
      if (controller.signal.aborted) return;
      const failure = await toolFailure(err, this.deps);
      const text = failure.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      await this.server
        .sendLoggingMessage({
          level: "error",
          logger: "tracker-events",
          data: `Change notifications stopped: ${text}`,
        })
        .catch(() => {});
    }
  }

  private async dispatch(change: Change): Promise<void> {
    const identifier = change.identifier?.toUpperCase();
    const teamKey = change.teamKey?.toUpperCase();
    let issueProject: Promise<string | null> | undefined;
    for (const [uri, target] of this.targets) {
      let hit = false;
      if (target.kind === "issue") {
        if (change.entity === "issue" && change.id === target.id) {
          hit = true;
          if (identifier) target.identifier = identifier; // moved: it answers to its new identifier now
        } else hit = identifier === target.identifier.toUpperCase() && ISSUE_SCOPED.has(change.entity);
      } else if (target.kind === "team") {
        hit = teamKey === target.key.toUpperCase() || (change.entity === "team" && change.id === target.id);
      } else {
        hit = change.entity === "project" && change.id === target.id;
        if (!hit && change.entity === "issue" && identifier && change.action !== "deleted") {
          // An issue's change moves its project's progress: look the issue's project up once per change.
          issueProject ??= this.deps.tracker.issues
            .get(identifier, { timeoutMs: this.deps.timeoutMs })
            .then((i) => i.project?.id ?? null)
            .catch(() => null);
          hit = (await issueProject) === target.id;
        }
      }
      if (hit) await this.notify(uri);
    }
  }

  private async notify(uri: string): Promise<void> {
    await this.server.server.sendResourceUpdated({ uri }).catch(() => {});
  }
}
