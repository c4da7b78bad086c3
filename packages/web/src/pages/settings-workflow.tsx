import { type Schemas, STATE_TYPES, WORKFLOW_TRIGGERS } from "@tracker/sdk";
import { useEffect, useId, useState } from "react";
import { useApp } from "../app-context.js";
import { useSubmit } from "../components/use-submit.js";
import { ErrorNote, LabelDot } from "../components/widgets.js";
import { store, useData } from "../store.js";
import { ColorField, SWATCHES } from "./settings-labels.js";

type State = Schemas["WorkflowState"];
type StateType = Schemas["StateType"];
type Trigger = Schemas["WorkflowTrigger"];

const TYPE_LABELS: Record<StateType, string> = {
  backlog: "Backlog",
  unstarted: "Unstarted",
  started: "Started",
  completed: "Completed",
  canceled: "Canceled",
};

const TRIGGER_LABELS: Record<Trigger, string> = {
  pr_opened: "A pull request is opened",
  pr_draft: "A draft pull request is opened",
  pr_ready_for_review: "A draft is marked ready for review",
  pr_review_requested: "A review is requested",
  pr_merged: "The pull request is merged",
  pr_closed: "The pull request is closed without merging",
};

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** Where the focus goes once a move has been drawn: the moved state's button, or its other one at an end. */
let focusAfterMove: { id: string; dir: "up" | "down"; position: number } | null = null;

/**
 * Settings, Workflow (contract, `createWorkflowState`, `updateWorkflowState`, `deleteWorkflowState` and the
 * workflow rules): a team's states grouped by type, added, renamed, recoloured, moved up and down (buttons,
 * so the keyboard moves them too) and deleted with a "move its issues to" choice; and its pull-request rules,
 * trigger to state, team-wide or for one project. Offered to admins and members for the teams they are in;
 * the server refuses anyone else.
 */
export function WorkflowSettings() {
  const { teams, me } = useApp();
  const id = useId();
  const mine = teams;
  const [key, setKey] = useState(mine[0]?.key ?? "");
  const team = mine.find((t) => t.key === key) ?? mine[0];
  if (me?.role === "guest")
    return <p className="empty">Guests may not change a team's workflow: ask a member or an admin.</p>;
  if (!team) return <p className="empty">Join a team to set up its workflow.</p>;
  return (
    <>
      <p className="field workflow-team">
        <label htmlFor={`${id}-team`}>Team</label>
        <select id={`${id}-team`} value={team.key} onChange={(e) => setKey(e.target.value)}>
          {mine.map((t) => (
            <option key={t.id} value={t.key}>
              {t.name} ({t.key})
            </option>
          ))}
        </select>
      </p>
      <TeamWorkflow key={team.key} teamKey={team.key} />
    </>
  );
}

function TeamWorkflow({ teamKey }: { teamKey: string }) {
  const { tracker } = useApp();
  const id = useId();
  const data = useData(`teams:workflow:${teamKey}`, async () => {
    const [states, workflows, projects] = await Promise.all([
      tracker.teams.states(teamKey),
      tracker.teams.workflows(teamKey),
      tracker.projects.list({ team: [teamKey], limit: 200 }),
    ]);
    return { states, workflows, projects: projects.items };
  });
  const states = data.data?.states ?? [];
  // After a move, the moved state's button keeps the focus (or its other one, at an end of its group).
  useEffect(() => {
    if (!focusAfterMove) return;
    const { id: moved, dir, position } = focusAfterMove;
    // Not before the states read back show the move: until then the buttons are the old ones.
    if (states.find((s) => s.id === moved)?.position !== position) return;
    const button =
      document.querySelector<HTMLButtonElement>(`[data-move="${moved}-${dir}"]:not(:disabled)`) ??
      document.querySelector<HTMLButtonElement>(`[data-move="${moved}-${dir === "up" ? "down" : "up"}"]`);
    if (button) {
      button.focus();
      focusAfterMove = null;
    }
  });
  return (
    <>
      <ErrorNote error={data.error} />
      <section aria-labelledby={`${id}-states`} className="settings-section">
        <h3 id={`${id}-states`}>States of {teamKey}</h3>
        {data.data &&
          STATE_TYPES.map((type) => <StateGroup key={type} teamKey={teamKey} type={type} states={states} />)}
        {data.data && <AddState teamKey={teamKey} />}
      </section>
      {data.data && (
        <section aria-labelledby={`${id}-rules`} className="settings-section">
          <h3 id={`${id}-rules`}>Pull request rules of {teamKey}</h3>
          <p className="muted">
            When a pull request that mentions an issue of {teamKey} does this, the issue moves to the state. A
            project's rule wins over the team's.
          </p>
          <Rules teamKey={teamKey} {...data.data} />
        </section>
      )}
    </>
  );
}

function StateGroup({ teamKey, type, states }: { teamKey: string; type: StateType; states: State[] }) {
  const id = useId();
  const group = states.filter((s) => s.type === type);
  return (
    <div className="state-group">
      <h4 id={`${id}-h`}>{TYPE_LABELS[type]}</h4>
      {group.length === 0 ? (
        <p className="muted">No {TYPE_LABELS[type].toLowerCase()} states.</p>
      ) : (
        <ul className="plain settings-list" aria-labelledby={`${id}-h`}>
          {group.map((state, i) => (
            <StateItem
              key={state.id}
              teamKey={teamKey}
              state={state}
              states={states}
              prev={group[i - 1]}
              next={group[i + 1]}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

type Mode = "view" | "edit" | "delete";

function StateItem({
  teamKey,
  state,
  states,
  prev,
  next,
}: {
  teamKey: string;
  state: State;
  states: State[];
  prev: State | undefined;
  next: State | undefined;
}) {
  const { tracker, notify } = useApp();
  const id = useId();
  const [mode, setMode] = useState<Mode>("view");
  const [name, setName] = useState(state.name);
  const [color, setColor] = useState(state.color);
  const [moveTo, setMoveTo] = useState("");
  const [moving, setMoving] = useState<unknown>(null);
  const toggle = (m: Mode) => setMode(mode === m ? "view" : m);
  const refresh = () => store.invalidate(["teams"]);

  const move = async (dir: "up" | "down") => {
    const other = dir === "up" ? prev : next;
    if (!other) return;
    setMoving(null);
    try {
      await tracker.teams.updateState(teamKey, state.id, { position: other.position });
      focusAfterMove = { id: state.id, dir, position: other.position };
      refresh();
    } catch (err) {
      setMoving(err);
    }
  };
  const save = useSubmit(async () => {
    const body: Parameters<typeof tracker.teams.updateState>[2] = {};
    if (name.trim() !== state.name) body.name = name.trim();
    if (color.toLowerCase() !== state.color.toLowerCase()) body.color = color;
    const saved = await tracker.teams.updateState(teamKey, state.id, body);
    refresh();
    setMode("view");
    notify(`${state.name} is now ${saved.name}.`);
  });
  const held = useData(mode === "delete" ? `teams:state-count:${state.id}` : null, () =>
    tracker.issues.counts({ team: teamKey, state: state.name, archived: "any", groupBy: "team" }),
  );
  const count = held.data?.total;
  const remove = useSubmit(async () => {
    const target = states.find((s) => s.id === moveTo);
    const { moved } = await tracker.teams.deleteState(teamKey, state.id, target ? { moveTo: target.id } : {});
    refresh();
    notify(`${state.name} is deleted${moved ? `; ${plural(moved, "issue")} moved to ${target?.name}` : ""}.`);
  });
  const others = states.filter((s) => s.id !== state.id);
  return (
    <li aria-label={state.name} className="state-settings">
      <span className="settings-item-main">
        <LabelDot color={state.color} /> <strong>{state.name}</strong>
      </span>
      <span className="settings-item-actions">
        <button
          type="button"
          data-move={`${state.id}-up`}
          disabled={!prev}
          onClick={() => void move("up")}
          aria-label={`Move ${state.name} up`}
        >
          ↑
        </button>
        <button
          type="button"
          data-move={`${state.id}-down`}
          disabled={!next}
          onClick={() => void move("down")}
          aria-label={`Move ${state.name} down`}
        >
          ↓
        </button>
        <button type="button" aria-expanded={mode === "edit"} onClick={() => toggle("edit")}>
          Edit<span className="sr-only"> {state.name}</span>
        </button>
        <button
          type="button"
          className="danger-button"
          aria-expanded={mode === "delete"}
          onClick={() => toggle("delete")}
        >
          Delete<span className="sr-only"> {state.name}</span>…
        </button>
      </span>
      <ErrorNote error={moving} />
      {mode === "edit" && (
        <form onSubmit={save.submit} className="stack settings-subform" aria-label={`Edit ${state.name}`}>
          <label htmlFor={`${id}-name`}>Name of {state.name}</label>
          <input
            id={`${id}-name`}
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            required
          />
          <ColorField label={`Colour of ${state.name}`} value={color} onChange={setColor} />
          <p className="hint">A state's type stays: add a state of another type and move the issues there.</p>
          <button
            type="submit"
            className="primary"
            disabled={
              save.busy ||
              !name.trim() ||
              (name.trim() === state.name && color.toLowerCase() === state.color.toLowerCase())
            }
          >
            Save {state.name}
          </button>
          <ErrorNote error={save.error} />
        </form>
      )}
      {mode === "delete" && (
        <form onSubmit={remove.submit} className="stack confirm-delete" aria-label={`Delete ${state.name}`}>
          <p id={`${id}-what`}>
            <strong>
              {count === undefined
                ? `Counting the issues in ${state.name}…`
                : count === 0
                  ? `${state.name} holds no issues.`
                  : `${state.name} holds ${plural(count, "issue")}: they move to the state you choose.`}
            </strong>{" "}
            Pull request rules that move issues to it move them there instead.
          </p>
          <ErrorNote error={held.error} />
          <label htmlFor={`${id}-to`}>Move its issues to</label>
          <select
            id={`${id}-to`}
            value={moveTo}
            onChange={(e) => setMoveTo(e.target.value)}
            aria-describedby={`${id}-what`}
            required={!!count}
          >
            <option value="">{count ? "Choose a state…" : "Nowhere (it holds none)"}</option>
            {others.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({TYPE_LABELS[s.type]})
              </option>
            ))}
          </select>
          <p className="settings-item-actions">
            <button
              type="submit"
              className="danger-button"
              disabled={remove.busy || count === undefined || (count > 0 && !moveTo)}
            >
              Delete {state.name}
            </button>
            <button type="button" onClick={() => setMode("view")}>
              Cancel
            </button>
          </p>
          <ErrorNote error={remove.error} />
        </form>
      )}
    </li>
  );
}

function AddState({ teamKey }: { teamKey: string }) {
  const { tracker, notify } = useApp();
  const id = useId();
  const [name, setName] = useState("");
  const [type, setType] = useState<StateType>("started");
  const [color, setColor] = useState(SWATCHES[2]!);
  const { submit, busy, error } = useSubmit(async () => {
    const state = await tracker.teams.createState(teamKey, { name: name.trim(), type, color });
    setName("");
    store.invalidate(["teams"]);
    notify(`${state.name} is added to ${teamKey}'s ${TYPE_LABELS[state.type].toLowerCase()} states.`);
  });
  return (
    <form onSubmit={submit} className="stack settings-form" aria-label={`Add a state to ${teamKey}`}>
      <h4>Add a state</h4>
      <label htmlFor={`${id}-name`}>State name</label>
      <input
        id={`${id}-name`}
        value={name}
        maxLength={100}
        placeholder="In QA"
        onChange={(e) => setName(e.target.value)}
        required
      />
      <label htmlFor={`${id}-type`}>Type</label>
      <select id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as StateType)}>
        {STATE_TYPES.map((t) => (
          <option key={t} value={t}>
            {TYPE_LABELS[t]}
          </option>
        ))}
      </select>
      <ColorField label="Colour of the new state" value={color} onChange={setColor} />
      <button type="submit" className="primary" disabled={busy || !name.trim()}>
        {busy ? "Adding…" : "Add state"}
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

function Rules({
  teamKey,
  states,
  workflows,
  projects,
}: {
  teamKey: string;
  states: State[];
  workflows: Schemas["WorkflowRule"][];
  projects: { id: string; name: string }[];
}) {
  const { tracker, notify } = useApp();
  const id = useId();
  const [trigger, setTrigger] = useState<Trigger>("pr_merged");
  const [target, setTarget] = useState("");
  const [project, setProject] = useState("");
  const [removing, setRemoving] = useState<unknown>(null);
  const stateName = (sid: string) => states.find((s) => s.id === sid)?.name ?? "a deleted state";
  const projectName = (pid: string | null) =>
    pid ? (projects.find((p) => p.id === pid)?.name ?? "a project") : "every project";
  const { submit, busy, error } = useSubmit(async () => {
    await tracker.teams.upsertWorkflow(teamKey, {
      trigger,
      targetStateId: target,
      projectId: project || null,
    });
    store.invalidate(["teams"]);
    notify(
      `${TRIGGER_LABELS[trigger]}: issues move to ${stateName(target)} (${projectName(project || null)}).`,
    );
  });
  const remove = async (rule: Schemas["WorkflowRule"]) => {
    setRemoving(null);
    try {
      await tracker.teams.deleteWorkflow(teamKey, rule.id);
      store.invalidate(["teams"]);
    } catch (err) {
      setRemoving(err);
    }
  };
  return (
    <>
      {workflows.length === 0 ? (
        <p className="empty">No rules: pull requests leave issues where they are.</p>
      ) : (
        <ul className="plain settings-list" aria-label={`Rules of ${teamKey}`}>
          {workflows.map((rule) => {
            const said = `${TRIGGER_LABELS[rule.trigger]} (${projectName(rule.projectId)}): move to ${stateName(rule.targetStateId)}`;
            return (
              <li key={rule.id} aria-label={said}>
                <span className="settings-item-main">{said}</span>
                <button type="button" onClick={() => void remove(rule)}>
                  Remove<span className="sr-only"> the rule: {said}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <ErrorNote error={removing} />
      <form onSubmit={submit} className="stack settings-form" aria-label={`Set a rule of ${teamKey}`}>
        <label htmlFor={`${id}-trigger`}>When</label>
        <select id={`${id}-trigger`} value={trigger} onChange={(e) => setTrigger(e.target.value as Trigger)}>
          {WORKFLOW_TRIGGERS.map((t) => (
            <option key={t} value={t}>
              {TRIGGER_LABELS[t]}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-state`}>Move the issue to</label>
        <select id={`${id}-state`} value={target} onChange={(e) => setTarget(e.target.value)} required>
          <option value="">Choose a state…</option>
          {states.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-project`}>For</label>
        <select id={`${id}-project`} value={project} onChange={(e) => setProject(e.target.value)}>
          <option value="">Every project</option>
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} only
            </option>
          ))}
        </select>
        <button type="submit" className="primary" disabled={busy || !target}>
          Set rule
        </button>
        <ErrorNote error={error} />
      </form>
    </>
  );
}
