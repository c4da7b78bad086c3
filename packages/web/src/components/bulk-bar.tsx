import type { Schemas, Tracker } from "@tracker/sdk";
import { useEffect, useState } from "react";
import { type Issue, useApp } from "../app-context.js";
import { restoreIssue } from "../archive.js";
import { type IssueChange, previewChange, saveLabels, settleIssue, updateIssue } from "../issue-edit.js";
import { applyIssue, shownCopy } from "../issue-lists.js";
import { clearSelection, keepSelected, useSelection } from "../selection.js";
import { describeError } from "../session.js";
import { store, useData } from "../store.js";
import { cachedIssueById } from "./palette.js";
import { Picker, type PickerOption } from "./picker.js";
import { Avatar, LabelDot, PriorityIcon, priorityLabel, StateIcon } from "./widgets.js";

/** How many saves go to the server at once: the rest wait their turn. */
const AT_ONCE = 6;

/** A slot-limited runner: at most `size` of the jobs given run at a time, in the order given. */
function limiter(size: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (running >= size) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await job();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/**
 * The tracker as `updateIssue` sees it, with its saves taking turns in small batches: every issue's
 * change is shown at once, the requests go `AT_ONCE` at a time. The contract has no batch update
 * (openapi.yaml: `updateIssue` is per issue; `moveIssues` is the one batch, used for moves below).
 */
function batched(tracker: Tracker): Tracker {
  const slot = limiter(AT_ONCE);
  const issues = Object.create(tracker.issues) as Tracker["issues"];
  issues.update = (identifier, body, options) => slot(() => tracker.issues.update(identifier, body, options));
  return Object.create(tracker, { issues: { value: issues } }) as Tracker;
}

/**
 * The bar shown while cards or rows are selected: "N selected" and what can be done to them all at once
 * (state, assignee, labels added, priority, project, cycle, another team, archive). Each issue's change
 * shows at once and is rolled back by itself when the server refuses it; one message names those refused.
 */
export default function BulkBar() {
  const { tracker, teams, notify } = useApp();
  const ids = useSelection();
  useData("teams", () => tracker.teams.list());
  // Read again on every change of the cache (useData re-renders this): what the lists show now.
  const issues = [...ids].map((id) => cachedIssueById(id)).filter((i): i is Issue => Boolean(i));
  // Ids no longer in any list (archived, moved, filtered away) leave the selection.
  useEffect(() => {
    if (issues.length < ids.size) keepSelected(issues.map((i) => i.id));
  }, [issues, ids]);
  const [wanted, setWanted] = useState(false);
  const users = useData(wanted ? "users" : null, () => tracker.users.list());
  const labels = useData(wanted ? "labels" : null, () => tracker.labels.list());
  const projects = useData(wanted ? "projects:all" : null, () => tracker.projects.list({ limit: 200 }));
  const teamIds = [...new Set(issues.map((i) => i.team.id))];
  const oneTeam = teamIds.length === 1 ? teams.find((t) => t.id === teamIds[0]) : undefined;
  const cycles = useData(wanted && oneTeam?.cyclesEnabled ? `cycles:${oneTeam.key}` : null, () =>
    tracker.cycles.list(oneTeam!.key),
  );
  const [busy, setBusy] = useState(false);

  if (issues.length === 0) return null;
  const n = issues.length;
  const these = n === 1 ? issues[0]!.identifier : `${n} issues`;

  /** Runs `save` for every issue, concurrently in turns, and says which were refused and why. */
  const each = async (what: string, save: (issue: Issue) => Promise<unknown>) => {
    const results = await Promise.allSettled(issues.map((issue) => save(issue)));
    const refused = results.flatMap((r, at) =>
      r.status === "rejected" ? [`${issues[at]!.identifier} (${describeError(r.reason)})`] : [],
    );
    if (refused.length === 0) notify(`${what}: ${these}`);
    else notify(`${refused.length} of ${n} not changed, put back: ${refused.join(", ")}`, "error");
  };
  const limited = batched(tracker);
  const change = (what: string, body: IssueChange, preview?: (issue: Issue) => Issue) =>
    each(what, (issue) =>
      updateIssue(limited, issue, body, (i) =>
        preview ? preview(previewChange(i, body)) : previewChange(i, body),
      ),
    );

  // The state names of the teams selected; an issue whose team has no state of that name is refused.
  const stateNames = new Map<string, Schemas["StateType"]>();
  for (const id of teamIds)
    for (const s of teams.find((t) => t.id === id)?.states ?? [])
      if (!stateNames.has(s.name)) stateNames.set(s.name, s.type);
  const stateOptions: PickerOption[] = [...stateNames].map(([name, type]) => ({
    value: name,
    label: name,
    icon: <StateIcon type={type} />,
  }));
  const assigneeOptions: PickerOption[] = [
    { value: "", label: "Unassigned", icon: <Avatar name={null} /> },
    ...(users.data ?? []).map((u) => ({
      value: u.id,
      label: u.name,
      keywords: [u.email],
      icon: <Avatar name={u.name} />,
    })),
  ];
  const labelOptions: PickerOption[] = (labels.data ?? []).map((l) => ({
    value: l.name,
    label: l.name,
    icon: <LabelDot color={l.color} />,
  }));
  const priorityOptions: PickerOption[] = [1, 2, 3, 4, 0].map((p) => ({
    value: String(p),
    label: priorityLabel(p),
    icon: <PriorityIcon priority={p} />,
  }));
  const projectOptions: PickerOption[] = [
    { value: "", label: "No project" },
    ...(projects.data?.items ?? []).map((p) => ({ value: p.id, label: p.name })),
  ];
  const cycleOptions: PickerOption[] = oneTeam?.cyclesEnabled
    ? [
        { value: "", label: "No cycle" },
        { value: "current", label: "Current cycle" },
        ...(cycles.data ?? []).map((c) => ({
          value: String(c.number),
          label: c.name ?? `Cycle ${c.number}`,
        })),
      ]
    : [];
  const teamOptions: PickerOption[] = teams
    .filter((t) => !(oneTeam && t.id === oneTeam.id))
    .map((t) => ({ value: t.key, label: t.name, keywords: [t.key] }));

  /** Moves to another team: the contract's `moveIssues`, all or nothing, 200 identifiers a call. */
  const move = async (teamKey: string) => {
    setBusy(true);
    try {
      const identifiers = issues.map((i) => i.identifier);
      const moved: Schemas["MovedIssue"][] = [];
      for (let at = 0; at < identifiers.length; at += 200)
        moved.push(
          ...(await tracker.issues.move({ identifiers: identifiers.slice(at, at + 200), team: teamKey })),
        );
      store.invalidate(["issues:", "counts:", "page:", "issue:"]);
      clearSelection();
      notify(`Moved ${moved.length === 1 ? moved[0]!.to : `${moved.length} issues`} to ${teamKey}`);
    } catch (error) {
      notify(`Not moved to ${teamKey}: ${describeError(error)}`, "error");
    } finally {
      setBusy(false);
    }
  };

  /** Archives each (taken out of the lists at once, put back by itself when refused), with an Undo. */
  const archive = async () => {
    const now = new Date().toISOString();
    const originals = issues.map((i) => shownCopy(i.id) ?? i);
    for (const issue of originals) applyIssue({ ...issue, archivedAt: now });
    const slot = limiter(AT_ONCE);
    const results = await Promise.allSettled(
      originals.map((issue) => slot(() => tracker.issues.archive(issue.identifier))),
    );
    const archived: string[] = [];
    const refused: string[] = [];
    results.forEach((r, at) => {
      const original = originals[at]!;
      if (r.status === "fulfilled") {
        settleIssue(r.value);
        archived.push(original.identifier);
      } else {
        applyIssue(original);
        refused.push(`${original.identifier} (${describeError(r.reason)})`);
      }
    });
    keepSelected(originals.filter((i) => !archived.includes(i.identifier)).map((i) => i.id));
    if (refused.length > 0) notify(`${refused.length} of ${n} not archived: ${refused.join(", ")}`, "error");
    if (archived.length > 0)
      notify(`${archived.length === 1 ? archived[0] : `${archived.length} issues`} archived`, "info", {
        label: "Undo",
        run: () => {
          for (const identifier of archived) void restoreIssue(tracker, notify, identifier);
        },
      });
  };

  return (
    <section
      className="bulk-bar"
      aria-label="Selected issues"
      onFocus={() => setWanted(true)}
      onPointerEnter={() => setWanted(true)}
    >
      <span className="bulk-count" role="status">
        {n} selected
      </span>
      <Picker
        label="State"
        value={null}
        options={stateOptions}
        onChange={(name) => change(`State ${name}`, { state: name })}
        triggerLabel={`Change the state of ${these}`}
      >
        State
      </Picker>
      <Picker
        label="Assignee"
        value={null}
        options={assigneeOptions}
        onChange={(id) =>
          change(id ? `Assigned to ${users.data?.find((u) => u.id === id)?.name ?? id}` : "Unassigned", {
            assignee: id || null,
          })
        }
        triggerLabel={`Assign ${these}`}
      >
        Assignee
      </Picker>
      <Picker
        label="Labels"
        value={null}
        options={labelOptions}
        onChange={(name) =>
          each(`Label ${name} added`, (issue) =>
            issue.labels.includes(name)
              ? Promise.resolve(null)
              : saveLabels(limited, issue, issue.labels, [...issue.labels, name]),
          )
        }
        triggerLabel={`Add a label to ${these}`}
      >
        Label
      </Picker>
      <Picker
        label="Priority"
        value={null}
        options={priorityOptions}
        onChange={(p) =>
          change(`Priority ${priorityLabel(Number(p))}`, { priority: Number(p) as Schemas["Priority"] })
        }
        triggerLabel={`Change the priority of ${these}`}
      >
        Priority
      </Picker>
      <Picker
        label="Project"
        value={null}
        options={projectOptions}
        onChange={(id) => {
          const project = projects.data?.items.find((p) => p.id === id);
          void change(project ? `Project ${project.name}` : "No project", { project: id || null }, (i) => ({
            ...i,
            project: project ? { id: project.id, name: project.name } : null,
          }));
        }}
        triggerLabel={`Set the project of ${these}`}
      >
        Project
      </Picker>
      {cycleOptions.length > 0 && (
        <Picker
          label="Cycle"
          value={null}
          options={cycleOptions}
          onChange={(c) =>
            change(c ? `Cycle ${c}` : "No cycle", {
              cycle: c === "" ? null : c === "current" ? "current" : Number(c),
            })
          }
          triggerLabel={`Set the cycle of ${these}`}
        >
          Cycle
        </Picker>
      )}
      {teamOptions.length > 0 && (
        <Picker
          label="Team"
          value={null}
          options={teamOptions}
          onChange={(key) => void move(key)}
          disabled={busy}
          triggerLabel={`Move ${these} to another team`}
        >
          Move
        </Picker>
      )}
      <button type="button" onClick={() => void archive()}>
        Archive
      </button>
      <button type="button" className="bulk-clear" onClick={clearSelection} aria-keyshortcuts="Escape">
        Clear<span className="sr-only"> the selection</span>
      </button>
    </section>
  );
}
