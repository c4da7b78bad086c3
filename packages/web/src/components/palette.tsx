import * as Dialog from "@radix-ui/react-dialog";
import type { Schemas } from "@tracker/sdk";
import { Command, defaultFilter } from "cmdk";
import { type ReactNode, useEffect, useState } from "react";
import { useApp } from "../app-context.js";
import { archiveIssue, restoreIssue } from "../archive.js";
import { previewChange, saveLabels, updateIssue } from "../issue-edit.js";
import { initiativePath, projectPath } from "../pages/project.js";
import { navigate } from "../router.js";
import { describeError } from "../session.js";
import { store, useData } from "../store.js";
import { setTheme, THEMES } from "../theme.js";
import { Avatar, LabelDot, PriorityIcon, priorityLabel, StateIcon } from "./widgets.js";

type Issue = Schemas["Issue"];

/** What the palette opens on: everything, or one property of the issue in hand. */
export type PaletteMode = "root" | "state" | "assignee" | "priority" | "labels";

/** `eng-123-fix-the-login-form`: the branch name people give the work on an issue. */
export function branchName(issue: Pick<Issue, "identifier" | "title">): string {
  const slug = issue.title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "");
  return slug ? `${issue.identifier.toLowerCase()}-${slug}` : issue.identifier.toLowerCase();
}

async function copy(text: string): Promise<void> {
  try {
    if (navigator.clipboard && window.isSecureContext) return await navigator.clipboard.writeText(text);
  } catch {
    // Refused (no permission, page not focused): the older way below still works from a click.
  }
  const area = document.createElement("textarea");
  area.value = text;
  document.body.append(area);
  area.select();
  const done = document.execCommand("copy");
  area.remove();
  if (!done) throw new Error("the browser refused to copy");
}

const PRIORITY_ORDER = [1, 2, 3, 4, 0];

/** One row of the palette's root list. */
interface Entry {
  id: string;
  label: string;
  run(): void;
  hint?: string | undefined;
  icon?: ReactNode;
  /** What the text is matched against when not the label (a label that quotes an issue's title). */
  match?: string;
}

/**
 * How well `text` matches an entry, fuzzily (cmdk's own scoring: letters in order, word starts count
 * most); 0 is no match. Everything matches an empty text.
 */
function score(entry: Pick<Entry, "label" | "hint" | "match">, text: string): number {
  if (!text) return 1;
  return defaultFilter(entry.match ?? entry.label, text, entry.hint ? [entry.hint] : undefined);
}

/** The entries that match, best first (their own order kept among equals, and with no text). */
function ranked(entries: (Entry | null | undefined | false)[], text: string): Entry[] {
  return entries
    .filter((e): e is Entry => Boolean(e))
    .map((entry, at) => ({ entry, at, score: score(entry, text) }))
    .filter((e) => e.score > 0)
    .sort((a, b) => b.score - a.score || a.at - b.at)
    .map((e) => e.entry);
}

/**
 * Ctrl/Cmd-K: runs an action on the issue in hand (the one shown, or the card or row focused): change
 * its state, assignee, priority or labels, assign it to me, copy its identifier, branch name or link;
 * creates an issue; and jumps to a board, a page, a project or initiative by name, or an issue by
 * identifier or text.
 */
export function Palette({
  onClose,
  identifier,
  mode: initialMode = "root",
  onShortcuts,
}: {
  onClose(): void;
  /** The issue in hand, if any. */
  identifier: string | undefined;
  mode?: PaletteMode;
  onShortcuts(): void;
}) {
  const { tracker, teams, ws, me, notify, openCreate } = useApp();
  const [mode, setMode] = useState<PaletteMode>(initialMode);
  const [text, setText] = useState("");
  const [found, setFound] = useState<Issue[]>([]);
  const [problem, setProblem] = useState("");
  const projects = useData("projects:all", () => tracker.projects.list({ limit: 200 }));
  const initiatives = useData("initiatives:all", () => tracker.initiatives.list({ limit: 200 }));
  const users = useData(mode === "assignee" ? "users" : null, () => tracker.users.list());
  const labels = useData(mode === "labels" ? "labels" : null, () => tracker.labels.list());
  const target = useData<Issue>(identifier ? `issue:${identifier}` : null, () =>
    tracker.issues.get(identifier!),
  );
  const issue = target.data;
  const [ticked, setTicked] = useState<string[] | null>(null);
  // The highlighted row (below: the first row shown while typing).
  const [selected, setSelected] = useState("");

  useEffect(() => {
    const q = text.trim();
    if (mode !== "root" || q.length < 2) {
      setFound([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      tracker.issues.list({ q, limit: 8 }, { signal: controller.signal }).then(
        (page) => {
          setProblem("");
          setFound(page.items);
        },
        (error) => {
          if (!controller.signal.aborted) setProblem(describeError(error));
        },
      );
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, tracker, mode]);

  const go = (to: string) => {
    onClose();
    navigate(to);
  };
  const change = (body: Parameters<typeof previewChange>[1]) => {
    if (!issue) return;
    onClose();
    updateIssue(tracker, issue, body, (i) => previewChange(i, body)).catch((error) =>
      notify(`${issue.identifier} not saved: ${describeError(error)}`, "error"),
    );
  };
  const copied = (value: string) => {
    onClose();
    copy(value).then(
      () => notify(`Copied ${value}`),
      (error) => notify(`Could not copy: ${describeError(error)}`, "error"),
    );
  };
  const sub = (next: PaletteMode) => {
    setMode(next);
    setText("");
  };

  const lower = text.trim().toLowerCase();
  const matches = (label: string) => score({ label }, lower) > 0;
  const row = ({ id, label, run, hint, icon }: Entry) => (
    <Command.Item key={id} value={id} onSelect={run} className="palette-item">
      {icon}
      <span className="picker-label">{label}</span>
      {hint && <span className="muted palette-hint">{hint}</span>}
    </Command.Item>
  );
  const item = (id: string, label: string, run: () => void, hint?: string, icon?: React.ReactNode) =>
    score({ label, hint }, lower) > 0 ? row({ id, label, run, hint, icon }) : null;
  const entry = (id: string, label: string, run: () => void, hint?: string, icon?: ReactNode): Entry => ({
    id,
    label,
    run,
    hint,
    icon,
  });
  /** The rows shown, in order: the first is highlighted as the text changes. */
  let order: string[] = [];

  const team = issue ? teams.find((t) => t.id === issue.team.id) : undefined;
  const labelsNow = ticked ?? issue?.labels ?? [];

  let body: React.ReactNode;
  if (mode === "state" && issue) {
    body = (team?.states ?? []).map((s) =>
      item(
        s.id,
        s.name,
        () => change({ state: s.name }),
        s.id === issue.state.id ? "current" : undefined,
        <StateIcon type={s.type} />,
      ),
    );
  } else if (mode === "assignee" && issue) {
    body = [
      item("nobody", "Unassigned", () => change({ assignee: null }), undefined, <Avatar name={null} />),
      ...(users.data ?? []).map((u) =>
        item(u.id, u.name, () => change({ assignee: u.id }), u.email, <Avatar name={u.name} />),
      ),
    ];
  } else if (mode === "priority" && issue) {
    body = PRIORITY_ORDER.map((n) =>
      item(
        `p${n}`,
        priorityLabel(n),
        () => change({ priority: n as Schemas["Priority"] }),
        undefined,
        <PriorityIcon priority={n} />,
      ),
    );
  } else if (mode === "labels" && issue) {
    body = (labels.data ?? []).map((l) =>
      matches(l.name) ? (
        <Command.Item
          key={l.id}
          value={l.id}
          aria-checked={labelsNow.includes(l.name)}
          className="palette-item"
          onSelect={() => {
            const next = labelsNow.includes(l.name)
              ? labelsNow.filter((n) => n !== l.name)
              : [...labelsNow, l.name];
            setTicked(next);
            saveLabels(tracker, issue, labelsNow, next).catch((error) =>
              notify(`${issue.identifier} labels not saved: ${describeError(error)}`, "error"),
            );
          }}
        >
          <LabelDot color={l.color} />
          <span className="picker-label">{l.name}</span>
          {labelsNow.includes(l.name) && <span aria-hidden="true">✓</span>}
        </Command.Item>
      ) : null,
    );
  } else {
    // The issue in hand's actions first, then the commands and places, then the issues the search found:
    // "archive" and Enter archives the issue shown, it never opens another one found by the word.
    const actions = issue
      ? [
          entry("a-state", `Change state of ${issue.identifier}…`, () => sub("state"), "S"),
          entry(
            "a-assign-me",
            `Assign ${issue.identifier} to me`,
            () => me && change({ assignee: me.id }),
            "I",
          ),
          entry("a-assign", `Assign ${issue.identifier} to…`, () => sub("assignee"), "A"),
          entry("a-priority", `Change priority of ${issue.identifier}…`, () => sub("priority"), "P"),
          entry("a-labels", `Change labels of ${issue.identifier}…`, () => sub("labels"), "L"),
          issue.archivedAt
            ? entry("a-restore", `Restore ${issue.identifier} from the archive`, () => {
                onClose();
                void restoreIssue(tracker, notify, issue.identifier);
              })
            : entry("a-archive", `Archive ${issue.identifier}`, () => {
                onClose();
                void archiveIssue(tracker, notify, issue.identifier);
              }),
          entry("a-copy-id", `Copy identifier ${issue.identifier}`, () => copied(issue.identifier)),
          // Matched by what it does, not by the title the branch name quotes.
          {
            ...entry("a-copy-branch", `Copy branch name ${branchName(issue)}`, () =>
              copied(branchName(issue)),
            ),
            match: `Copy branch name ${issue.identifier}`,
          },
          entry("a-copy-link", "Copy link to the issue", () =>
            copied(`${location.origin}/${ws}/issue/${issue.identifier}`),
          ),
          entry("a-open", `Open ${issue.identifier}`, () => go(`/${ws}/issue/${issue.identifier}`)),
        ]
      : [];
    const commands = [
      entry(
        "create",
        "Create issue",
        () => {
          onClose();
          openCreate(issue ? { team: issue.team.key } : {});
        },
        "C",
      ),
      entry("new-document", "New document", () => go(`/${ws}/documents/new`)),
      entry(
        "shortcuts",
        "Keyboard shortcuts",
        () => {
          onClose();
          onShortcuts();
        },
        "?",
      ),
      ...THEMES.map((t) =>
        entry(`theme-${t}`, `Theme: ${t === "system" ? "as the system" : t}`, () => {
          onClose();
          setTheme(t);
        }),
      ),
    ];
    const places = [
      entry("inbox", "Inbox", () => go(`/${ws}/inbox`), "G I"),
      entry("my", "My issues", () => go(`/${ws}/my/assigned`), "G M"),
      ...teams.flatMap((t) => [
        entry(`board-${t.id}`, `${t.name} board`, () => go(`/${ws}/team/${t.key}/board`), t.key),
        entry(`list-${t.id}`, `${t.name} list`, () => go(`/${ws}/team/${t.key}/list`), t.key),
      ]),
      entry("projects", "Projects", () => go(`/${ws}/projects`), "page"),
      entry("initiatives", "Initiatives", () => go(`/${ws}/initiatives`), "page"),
      entry("views", "Saved views", () => go(`/${ws}/views`), "page"),
      entry("documents", "Documents", () => go(`/${ws}/documents`), "page"),
      entry("settings", "Settings", () => go(`/${ws}/settings`), "G S"),
      ...(lower
        ? [
            ...(projects.data?.items ?? []).map((p) =>
              entry(p.id, p.name, () => go(projectPath(ws, p)), "project"),
            ),
            ...(initiatives.data?.items ?? []).map((i) =>
              entry(i.id, i.name, () => go(initiativePath(ws, i)), "initiative"),
            ),
          ]
        : []),
    ];
    // The search's issues as the server ranked them (its own matching), after everything above.
    const hits = found.map((i) =>
      entry(
        i.id,
        `${i.identifier} ${i.title}`,
        () => go(`/${ws}/issue/${i.identifier}`),
        i.state.name,
        <StateIcon type={i.state.type} />,
      ),
    );
    const groups: [heading: string, entries: Entry[]][] = [
      ["Issue", ranked(actions, lower)],
      ["Actions", ranked(commands, lower)],
      ["Go to", ranked(places, lower)],
      ["Issues", hits],
    ];
    order = groups.flatMap(([, entries]) => entries.map((e) => e.id));
    body = groups.map(([heading, entries]) =>
      entries.length > 0 ? (
        <Command.Group key={heading} heading={heading}>
          {entries.map(row)}
        </Command.Group>
      ) : null,
    );
  }

  // Typing highlights the first row shown; rows arriving later (the search) leave the highlight alone.
  const first = order[0] ?? "";
  const orderKey = order.join("\n");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the text and mode decide, the order is read
  useEffect(() => {
    if (first) setSelected(first);
  }, [lower, mode]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: orderKey stands for the order
  useEffect(() => {
    if (order.length > 0 && !order.includes(selected)) setSelected(first);
  }, [orderKey]);

  const placeholder =
    mode === "root"
      ? "Type a command, an issue, a team or a page…"
      : `${mode === "labels" ? "Labels" : mode[0]!.toUpperCase() + mode.slice(1)} of ${identifier}…`;
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog palette-dialog" aria-describedby={undefined}>
          <Dialog.Title className="sr-only">Command palette</Dialog.Title>
          <Command
            label="Search issues, teams and pages"
            shouldFilter={false}
            loop
            {...(mode === "root" ? { value: selected, onValueChange: setSelected } : {})}
            className="palette"
            onKeyDown={(e) => {
              // Backspace in an empty sub-list goes back to every action.
              if (e.key === "Backspace" && !text && mode !== "root") sub("root");
            }}
          >
            <Command.Input
              value={text}
              onValueChange={setText}
              aria-label="Search issues, teams and pages"
              placeholder={placeholder}
            />
            {problem && <p className="error">{problem}</p>}
            {identifier && !issue && mode !== "root" && <p className="muted">Loading {identifier}…</p>}
            <Command.Empty className="muted picker-empty">Nothing matches.</Command.Empty>
            <Command.List aria-label="Results" className="palette-list">
              {body}
            </Command.List>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The issue a palette action applies to, from the cache of lists (or null when none is known). */
export function cachedIssueById(id: string): Issue | undefined {
  for (const key of store.keys(["issues:"])) {
    const found = (store.get(key)?.data as { items?: Issue[] } | undefined)?.items?.find((i) => i.id === id);
    if (found) return found;
  }
  return undefined;
}
