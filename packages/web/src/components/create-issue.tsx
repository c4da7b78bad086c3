import { PRIORITY_NAMES, type Schemas } from "@tracker/sdk";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { type NewIssueDefaults, useApp } from "../app-context.js";
import { applyIssue } from "../issue-lists.js";
import { navigate } from "../router.js";
import { store } from "../store.js";
import { ErrorNote, priorityLabel, TeamSelect } from "./widgets.js";

/** `c` from anywhere: a new issue in the team of the page shown (or the first team). */
export function CreateIssueDialog({ defaults, onClose }: { defaults: NewIssueDefaults; onClose(): void }) {
  const { tracker, teams, ws, notify } = useApp();
  const dialog = useRef<HTMLDialogElement>(null);
  const [team, setTeam] = useState(defaults.team ?? teams[0]?.key ?? "");
  const [title, setTitle] = useState(defaults.title ?? "");
  const [description, setDescription] = useState("");
  const [priority, setPriority] = useState<Schemas["Priority"]>(0);
  const [state, setState] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const states = teams.find((t) => t.key === team)?.states ?? [];

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const issue = await tracker.issues.create({
        team,
        title: title.trim(),
        ...(description.trim() ? { description } : {}),
        priority,
        ...(state ? { state } : {}),
        ...(defaults.parent ? { parent: defaults.parent } : {}),
      });
      applyIssue(issue);
      if (defaults.parent) store.invalidate([`page:${defaults.parent}`]);
      notify(`Created ${issue.identifier}.`);
      onClose();
      navigate(`/${ws}/issue/${issue.identifier}`);
    } catch (err) {
      // The dialog stays open with everything typed, so nothing is lost.
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="create-title" onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <h2 id="create-title">{defaults.parent ? `New sub-issue of ${defaults.parent}` : "New issue"}</h2>
        <TeamSelect value={team} onChange={setTeam} />
        <label>
          Title
          <input value={title} onChange={(e) => setTitle(e.target.value)} required autoFocus />
        </label>
        <label>
          Description
          <textarea rows={4} value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <div className="row">
          <label>
            State
            <select value={state} onChange={(e) => setState(e.target.value)}>
              <option value="">Team default</option>
              {states.map((s) => (
                <option key={s.id} value={s.name}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Priority
            <select
              value={priority}
              onChange={(e) => setPriority(Number(e.target.value) as Schemas["Priority"])}
            >
              {PRIORITY_NAMES.map((_, n) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: priorities are their index
                <option key={n} value={n}>
                  {priorityLabel(n)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <ErrorNote error={error} />
        <div className="row">
          <button type="submit" className="primary" disabled={busy || !title.trim() || !team}>
            Create issue
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
