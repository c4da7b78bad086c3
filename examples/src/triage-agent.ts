/**
 * A triage agent: an app user people delegate new bugs to (or mention, `@triage-bot`). It listens for its
 * sessions on the event stream, acknowledges each with a thought at once, labels and prioritises the issue
 * from its text by simple rules, asks by elicitation when no rule matches (and tries again on the
 * person's answer), answers with a response, and drops a session for good when a person stops it.
 *
 *   tracker agents create --name triage-bot          # as an admin: prints the agent's key
 *   TRACKER_API_KEY=<that key> npm run triage-agent -w @tracker/examples
 */
import { createTracker, type Schemas, type Tracker, TrackerError } from "@tracker/sdk";
import { isMain, runMain } from "./cli-args.js";

/** A rule: words in the issue's text, and the label and priority they mean. */
export interface TriageRule {
  pattern: RegExp;
  label: string;
  /** 1 urgent, 2 high, 3 medium, 4 low. */
  priority: 1 | 2 | 3 | 4;
}

/** The first rule that matches wins. */
export const TRIAGE_RULES: TriageRule[] = [
  { pattern: /\b(crash(es|ed)?|data loss|panic|stack ?trace|exception)\b/i, label: "bug", priority: 1 },
  { pattern: /\b(error|fails?|failing|broken|regression|bug)\b/i, label: "bug", priority: 2 },
  { pattern: /\b(slow|performance|latency|timeouts?|hangs?)\b/i, label: "performance", priority: 3 },
  { pattern: /\b(typo|docs?|documentation|wording|readme)\b/i, label: "docs", priority: 4 },
];

const PRIORITY_NAMES = ["none", "urgent", "high", "medium", "low"] as const;

/** The rule the text matches, and the words that matched; undefined when none does. */
export function classify(text: string): { rule: TriageRule; matched: string } | undefined {
  for (const rule of TRIAGE_RULES) {
    const m = rule.pattern.exec(text);
    if (m) return { rule, matched: m[0] };
  }
  return undefined;
}

export interface TriageAgentOptions {
  /** Aborting it ends the agent. */
  signal?: AbortSignal | undefined;
  /** Called once the agent listens (after picking up sessions opened before it started). */
  onReady?: (() => void) | undefined;
  /** What the agent does, one line at a time. */
  log?: ((line: string) => void) | undefined;
}

type Session = Schemas["AgentSession"];
type Activity = Schemas["AgentActivity"];

/**
 * Runs the agent until `signal` aborts: every session of its own that waits for it (`pending`, or
 * `unresponsive` when it was slow) is worked on, one step at a time per session.
 */
export async function runTriageAgent(tracker: Tracker, options: TriageAgentOptions = {}): Promise<void> {
  const log = options.log ?? (() => {});
  const me = (await tracker.users.list()).find((u) => u.isMe);
  if (!me) throw new Error("The key's owner is not a member of this workspace.");
  /** Sessions stopped by a person: never worked on again. */
  const stopped = new Set<string>();
  /** One chain of work per session, so two events about it never act twice at once. */
  const chains = new Map<string, Promise<void>>();

  const visit = (id: string) => {
    if (stopped.has(id)) return;
    const next = (chains.get(id) ?? Promise.resolve())
      .then(() => step(id))
      .catch((err: unknown) => log(`session ${id}: ${err instanceof Error ? err.message : String(err)}`));
    chains.set(id, next);
  };

  /** One look at the session: work when it waits for the agent, and remember a stop. */
  async function step(id: string): Promise<void> {
    if (stopped.has(id)) return;
    let read: { session: Session; activities: Activity[] };
    try {
      read = await tracker.agentSessions.get(id);
    } catch (err) {
      if (err instanceof TrackerError && err.status === 404) return;
      throw err;
    }
    const { session, activities } = read;
    if (session.agent.id !== me!.id) return;
    if (session.state === "stopped") {
      stopped.add(id);
      log(`${session.issue.identifier}: stopped by a person`);
      return;
    }
    if (session.state !== "pending" && session.state !== "unresponsive") return;
    await work(session, activities);
  }

  async function work(session: Session, activities: Activity[]): Promise<void> {
    const id = session.id;
    const identifier = session.issue.identifier;
    const prompt = activities.findLast((a) => a.kind === "prompt");
    const asked = activities.filter((a) => a.kind === "elicitation").length;
    await tracker.agentSessions.post(id, {
      kind: "thought",
      body: prompt ? `Reading your answer on ${identifier}.` : `Triaging ${identifier}: reading it.`,
    });
    const issue = await tracker.issues.get(identifier);
    const text = prompt ? prompt.body : `${issue.title}\n${issue.description ?? ""}`;
    const found = classify(text);
    if (stopped.has(id)) return;
    if (!found) {
      if (asked >= 2) {
        await tracker.agentSessions.post(id, {
          kind: "response",
          body: "I could not tell what kind of issue this is; leaving it for a person to triage.",
        });
        log(`${identifier}: left for a person`);
        return;
      }
      await tracker.agentSessions.post(id, {
        kind: "elicitation",
        body: "No rule matched. Is this a bug (does something crash, fail or break), slow, or a docs change?",
      });
      log(`${identifier}: asked`);
      return;
    }
    const { rule, matched } = found;
    const parameter = JSON.stringify({ addLabels: [rule.label], priority: rule.priority });
    await tracker.issues.update(identifier, { addLabels: [rule.label], priority: rule.priority });
    await tracker.agentSessions.post(id, {
      kind: "action",
      body: `Labelled ${rule.label}, priority ${PRIORITY_NAMES[rule.priority]}`,
      action: { name: "update_issue", parameter, result: "done" },
    });
    await tracker.agentSessions.post(id, {
      kind: "response",
      body: `Triaged as ${rule.label} with ${PRIORITY_NAMES[rule.priority]} priority: the text says "${matched}".`,
    });
    log(`${identifier}: ${rule.label}, priority ${rule.priority}`);
  }

  for await (const event of tracker.events.stream({ signal: options.signal })) {
    if (event.event === "connected") {
      // Sessions opened while the agent was away (or before this connection): catch up on them.
      for (const session of await tracker.agentSessions.list()) visit(session.id);
      options.onReady?.();
      options.onReady = undefined;
    } else if (event.event === "changed" && event.data.entity === "agent_session") {
      visit(event.data.id);
    } else if (event.event === "reset") {
      for (const session of await tracker.agentSessions.list()) visit(session.id);
    }
  }
  await Promise.allSettled(chains.values());
}

if (isMain(import.meta.url)) {
  await runMain(async () => {
    const controller = new AbortController();
    process.once("SIGINT", () => controller.abort());
    await runTriageAgent(createTracker(), {
      signal: controller.signal,
      onReady: () => console.error("Listening for sessions; Ctrl-C to stop."),
      log: (line) => console.log(line),
    });
  });
}
