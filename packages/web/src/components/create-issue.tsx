import * as Dialog from "@radix-ui/react-dialog";
import type { BodyOf, Schemas } from "@tracker/sdk";
import { type FormEvent, type KeyboardEvent, useRef, useState } from "react";
import { type NewIssueDefaults, useApp } from "../app-context.js";
import { applyIssue } from "../issue-lists.js";
import { store, useData } from "../store.js";
import { Picker } from "./picker.js";
import { Avatar, ErrorNote, LabelDot, PriorityIcon, priorityLabel, StateIcon } from "./widgets.js";

const PRIORITY_ORDER = [1, 2, 3, 4, 0];

/**
 * `c` from anywhere: a new issue in the team of the page shown, with every field `createIssue` takes.
 * The title has the focus; Enter in it, or Ctrl/Cmd-Enter anywhere, creates; "Create more" keeps the
 * dialog open for the next one. The page behind stays where it was.
 */
export function CreateIssueDialog({ defaults, onClose }: { defaults: NewIssueDefaults; onClose(): void }) {
  const { tracker, teams, notify, ws } = useApp();
  const title = useRef<HTMLInputElement>(null);
  const [team, setTeam] = useState(defaults.team ?? teams[0]?.key ?? "");
  const empty = (): Partial<BodyOf<"createIssue">> => ({
    ...(defaults.parent ? { parent: defaults.parent } : {}),
    ...(defaults.project ? { project: defaults.project } : {}),
  });
  const [fields, setFields] = useState(empty);
  const [text, setText] = useState(defaults.title ?? "");
  const [more, setMore] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<BodyOf<"createIssue">>) => setFields((f) => ({ ...f, ...change }));

  const teamData = teams.find((t) => t.key === team);
  const users = useData("users", () => tracker.users.list());
  const labels = useData("labels", () => tracker.labels.list());
  const projects = useData("projects:all", () => tracker.projects.list({ limit: 200 }));
  const cycles = useData(teamData?.cyclesEnabled ? `cycles:${team}` : null, () => tracker.cycles.list(team));

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy || !text.trim() || !team) return;
    setBusy(true);
    setError(null);
    try {
      const issue = await tracker.issues.create({ ...fields, team, title: text.trim() });
      applyIssue(issue);
      if (fields.parent) store.invalidate([`page:${fields.parent}`]);
      notify(`Created ${issue.identifier}: ${issue.title}`, "info", {
        to: `/${ws}/issue/${issue.identifier}`,
        label: `Open ${issue.identifier}`,
      });
      if (more) {
        setText("");
        setFields(empty());
        title.current?.focus();
      } else onClose();
    } catch (err) {
      // The dialog stays open with everything typed, so nothing is lost.
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  };

  const state = teamData?.states.find((s) => s.name === fields.state);
  const assignee = users.data?.find((u) => u.id === fields.assignee);
  const project = projects.data?.items.find((p) => p.id === fields.project || p.name === fields.project);
  const cycle = cycles.data?.find((c) => c.number === fields.cycle);
  const chosenLabels = fields.labels ?? [];
  const color = (name: string) => labels.data?.find((l) => l.name === name)?.color;

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content
          className="dialog create-dialog"
          aria-describedby={undefined}
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            title.current?.focus();
          }}
          onKeyDown={onKeyDown}
        >
          <form onSubmit={submit} className="stack">
            <div className="dialog-head">
              <Picker
                label="Team"
                value={team}
                options={teams.map((t) => ({ value: t.key, label: t.name, keywords: [t.key] }))}
                onChange={(key) => {
                  setTeam(key);
                  // States and cycles belong to a team.
                  set({ state: undefined, cycle: undefined });
                }}
                className="team-chip"
              >
                {teamData?.key ?? team}
              </Picker>
              <Dialog.Title className="dialog-title">
                {defaults.parent ? `New sub-issue of ${defaults.parent}` : "New issue"}
              </Dialog.Title>
            </div>
            <input
              ref={title}
              className="title-input"
              aria-label="Issue title"
              placeholder="Issue title"
              value={text}
              onChange={(e) => setText(e.target.value)}
              maxLength={255}
              required
            />
            <textarea
              aria-label="Description"
              placeholder="Add a description… (Markdown)"
              rows={4}
              value={fields.description ?? ""}
              onChange={(e) => set({ description: e.target.value || undefined })}
            />
            <div className="property-row">
              <Picker
                label="State"
                value={fields.state ?? null}
                options={(teamData?.states ?? []).map((s) => ({
                  value: s.name,
                  label: s.name,
                  icon: <StateIcon type={s.type} />,
                }))}
                onChange={(name) => set({ state: name })}
              >
                {state ? <StateIcon type={state.type} /> : null} {state?.name ?? "State"}
              </Picker>
              <Picker
                label="Priority"
                value={fields.priority === undefined ? null : String(fields.priority)}
                options={PRIORITY_ORDER.map((n) => ({
                  value: String(n),
                  label: priorityLabel(n),
                  icon: <PriorityIcon priority={n} />,
                }))}
                onChange={(v) => set({ priority: Number(v) as Schemas["Priority"] })}
              >
                <PriorityIcon priority={fields.priority ?? 0} />{" "}
                {fields.priority ? priorityLabel(fields.priority) : "Priority"}
              </Picker>
              <Picker
                label="Assignee"
                value={fields.assignee ?? null}
                options={(users.data ?? []).map((u) => ({
                  value: u.id,
                  label: u.name,
                  keywords: [u.email],
                  icon: <Avatar name={u.name} />,
                }))}
                onChange={(id) => set({ assignee: id })}
              >
                <Avatar name={assignee?.name} /> {assignee?.name ?? "Assignee"}
              </Picker>
              <Picker
                label="Labels"
                multiple
                value={chosenLabels}
                options={(labels.data ?? []).map((l) => ({
                  value: l.name,
                  label: l.name,
                  icon: <LabelDot color={l.color} />,
                }))}
                onChange={(names) => set({ labels: names })}
              >
                {chosenLabels.length === 0
                  ? "Labels"
                  : chosenLabels.map((name) => (
                      <span key={name} className="label-chip">
                        <LabelDot color={color(name)} />
                        {name}
                      </span>
                    ))}
              </Picker>
              <Picker
                label="Project"
                value={project?.id ?? null}
                options={(projects.data?.items ?? []).map((p) => ({ value: p.id, label: p.name }))}
                onChange={(id) => set({ project: id })}
              >
                {project?.name ?? "Project"}
              </Picker>
              {teamData?.cyclesEnabled && (
                <Picker
                  label="Cycle"
                  value={fields.cycle === undefined || fields.cycle === null ? null : String(fields.cycle)}
                  options={[
                    { value: "current", label: "Current cycle" },
                    ...(cycles.data ?? []).map((c) => ({
                      value: String(c.number),
                      label: c.name ?? `Cycle ${c.number}`,
                    })),
                  ]}
                  onChange={(v) => set({ cycle: v === "current" ? "current" : Number(v) })}
                >
                  {fields.cycle === "current" ? "Current cycle" : (cycle?.name ?? "Cycle")}
                </Picker>
              )}
            </div>
            <div className="property-row">
              <label className="inline-field">
                Estimate
                <input
                  type="number"
                  min={0}
                  inputMode="numeric"
                  value={fields.estimate ?? ""}
                  onChange={(e) =>
                    set({ estimate: e.target.value === "" ? undefined : Number(e.target.value) })
                  }
                />
              </label>
              <label className="inline-field">
                Due date
                <input
                  type="date"
                  value={fields.dueDate ?? ""}
                  onChange={(e) => set({ dueDate: e.target.value || undefined })}
                />
              </label>
              <label className="inline-field">
                Parent issue
                <input
                  value={fields.parent ?? ""}
                  placeholder="ENG-12"
                  onChange={(e) => set({ parent: e.target.value.trim() || undefined })}
                />
              </label>
            </div>
            {error ? <ErrorNote error={error} /> : null}
            <div className="dialog-foot">
              <label className="check">
                <input type="checkbox" checked={more} onChange={(e) => setMore(e.target.checked)} />
                Create more
              </label>
              <span className="muted small">
                <kbd>Ctrl</kbd>+<kbd>Enter</kbd>
              </span>
              <Dialog.Close asChild>
                <button type="button">Cancel</button>
              </Dialog.Close>
              <button type="submit" className="primary" disabled={busy || !text.trim() || !team}>
                Create issue
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
