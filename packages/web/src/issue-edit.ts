import type { BodyOf, ResponseOf, Schemas, Tracker } from "@tracker/sdk";
import { applyIssue, shownCopy } from "./issue-lists.js";
import { store } from "./store.js";

type Issue = Schemas["Issue"];
export type IssueChange = BodyOf<"updateIssue">;
type PageData = ResponseOf<"getIssuePageData">;

/**
 * Edits of one issue go to the server one after another, in the order they were made: a second edit
 * never races the first (a save answered out of order would show, then roll back to, a stale issue).
 */
const queues = new Map<string, Promise<unknown>>();

function enqueue<T>(issueId: string, job: () => Promise<T>): Promise<T> {
  const previous = queues.get(issueId) ?? Promise.resolve();
  const next = previous.then(job, job);
  const settled = next.catch(() => undefined);
  queues.set(issueId, settled);
  void settled.then(() => {
    if (queues.get(issueId) === settled) queues.delete(issueId);
  });
  return next;
}

/** Each issue as the server last answered a save of it: what a later refused save rolls back to. */
const confirmed = new Map<string, Issue>();

/** The `updatedAt` of the newest version of each issue this page saved: its own change coming back live is known. */
const savedVersions = new Map<string, number>();

/** Whether a live change at `at` is one this page already holds (its own save, answered already). */
export function alreadyHeld(issueId: string, at: string): boolean {
  const held = savedVersions.get(issueId);
  return held !== undefined && held >= Date.parse(at) - 1;
}

/** Every copy of an issue the lists hold, by cache key. */
function listCopies(issueId: string): Map<string, Issue> {
  const copies = new Map<string, Issue>();
  for (const key of store.keys(["issues:"])) {
    const data = store.get(key)?.data as { items?: Issue[] } | undefined;
    const found = data?.items?.find((i) => i.id === issueId);
    if (found) copies.set(key, found);
  }
  return copies;
}

/** Shows a change in every list at once, before the server answers. */
export function previewInLists(issueId: string, preview: (issue: Issue) => Issue): void {
  const copies = listCopies(issueId);
  const first = copies.values().next().value;
  if (first) applyIssue(preview(first));
}

/** The server's answer put everywhere it is shown: every list, the issue read, the issue's page data. */
export function settleIssue(saved: Issue): void {
  savedVersions.set(saved.id, Date.parse(saved.updatedAt));
  confirmed.set(saved.id, saved);
  applyIssue(saved);
  store.set(`issue:${saved.identifier}`, () => saved);
  store.set(`page:${saved.identifier}`, (data) => pageWith(data as PageData, saved));
}

function pageWith(data: PageData, saved: Issue): PageData {
  const colors = new Map(data.issue.labels.map((l) => [l.name, l.color]));
  const known = store.get("labels")?.data as Schemas["Label"][] | undefined;
  for (const l of known ?? []) if (!colors.has(l.name)) colors.set(l.name, l.color);
  return {
    ...data,
    issue: {
      ...data.issue,
      title: saved.title,
      description: saved.description,
      priority: saved.priority,
      estimate: saved.estimate,
      stateId: saved.state.id,
      assigneeId: saved.assignee?.id ?? null,
      projectId: saved.project?.id ?? null,
      cycleId: saved.cycle?.id ?? null,
      updatedAt: saved.updatedAt,
      completedAt: saved.completedAt,
      labels: saved.labels.map((name) => ({ name, color: colors.get(name) ?? "#8a8f98" })),
    },
  };
}

/**
 * Saves a change to an issue: shown at once in every list (`preview`), sent after any edit of the same
 * issue still in flight, and put back as the server last confirmed it when refused (the caller says
 * so). `change` may be a function, read when the save is sent: a label edit sends every tick not sent yet.
 * Resolves with the saved issue, or null when there was nothing left to send.
 */
export function updateIssue(
  tracker: Tracker,
  issue: { id: string; identifier: string },
  change: IssueChange | (() => IssueChange | null),
  preview?: (issue: Issue) => Issue,
): Promise<Issue | null> {
  const before = listCopies(issue.id);
  if (preview) previewInLists(issue.id, preview);
  return enqueue(issue.id, async () => {
    const body = typeof change === "function" ? change() : change;
    if (!body) return null;
    try {
      const saved = await tracker.issues.update(issue.identifier, body);
      settleIssue(saved);
      return saved;
    } catch (error) {
      // Put back what the server holds: its answer to an earlier save in this queue if there was one,
      // else the copies as they were before this edit.
      const last = confirmed.get(issue.id);
      if (last) {
        applyIssue(last);
        throw error;
      }
      // As the lists show it now (the preview): what the counts put back.
      const previewed = shownCopy(issue.id);
      for (const [key, copy] of before)
        store.set(key, (data) => {
          const pages = data as { items: Issue[] };
          return { ...pages, items: pages.items.map((i) => (i.id === copy.id ? copy : i)) };
        });
      const original = before.values().next().value;
      if (original) applyIssue(original, previewed);
      throw error;
    }
  });
}

/** Per issue, the ticks not sent yet: names to add and names to remove. */
const pendingLabels = new Map<string, { add: Set<string>; remove: Set<string> }>();

/**
 * Ticks or unticks labels: `before` is the set the picker showed, `after` the set once ticked. Only the
 * difference is sent, as the contract's `addLabels`/`removeLabels` on `updateIssue`, so a label a teammate
 * added meanwhile is kept, and ticks made faster than the server answers are never lost: saves go in turn
 * and each carries every tick not sent yet.
 */
export function saveLabels(
  tracker: Tracker,
  issue: { id: string; identifier: string },
  before: readonly string[],
  after: readonly string[],
): Promise<Issue | null> {
  const pending = pendingLabels.get(issue.id) ?? { add: new Set<string>(), remove: new Set<string>() };
  pendingLabels.set(issue.id, pending);
  for (const name of after)
    if (!before.includes(name)) {
      pending.add.add(name);
      pending.remove.delete(name);
    }
  for (const name of before)
    if (!after.includes(name)) {
      pending.remove.add(name);
      pending.add.delete(name);
    }
  return updateIssue(
    tracker,
    issue,
    () => {
      const ticks = pendingLabels.get(issue.id);
      // A later save has sent these ticks already: nothing more to send.
      pendingLabels.delete(issue.id);
      if (!ticks || ticks.add.size + ticks.remove.size === 0) return null;
      return {
        ...(ticks.add.size ? { addLabels: [...ticks.add] } : {}),
        ...(ticks.remove.size ? { removeLabels: [...ticks.remove] } : {}),
      };
    },
    (i) => {
      const kept = i.labels.filter((name) => after.includes(name) || !before.includes(name));
      return { ...i, labels: [...kept, ...after.filter((name) => !kept.includes(name))] };
    },
  );
}

/** A list copy of an issue as `change` will leave it, as far as it can be told here. */
export function previewChange(issue: Issue, change: IssueChange): Issue {
  const next: Issue = { ...issue };
  if (change.title !== undefined) next.title = change.title;
  if (change.priority !== undefined) next.priority = change.priority;
  if (change.estimate !== undefined) next.estimate = change.estimate;
  if (change.dueDate !== undefined) next.dueDate = change.dueDate;
  if (change.labels !== undefined) next.labels = change.labels;
  if (change.state !== undefined) {
    const teams = store.get("teams")?.data as Schemas["Team"][] | undefined;
    const state = teams
      ?.find((t) => t.id === issue.team.id)
      ?.states.find((s) => s.name.toLowerCase() === change.state!.toLowerCase());
    if (state) next.state = { id: state.id, name: state.name, type: state.type };
  }
  if (change.assignee !== undefined) {
    const users = store.get("users")?.data as Schemas["User"][] | undefined;
    const user =
      change.assignee === "me" ? users?.find((u) => u.isMe) : users?.find((u) => u.id === change.assignee);
    next.assignee =
      change.assignee === null
        ? null
        : user
          ? { id: user.id, name: user.name, email: user.email }
          : issue.assignee;
  }
  return next;
}
