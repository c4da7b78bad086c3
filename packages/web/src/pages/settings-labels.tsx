import type { Schemas } from "@tracker/sdk";
import { useId, useState } from "react";
import { useApp } from "../app-context.js";
import { useSubmit } from "../components/use-submit.js";
import { ErrorNote } from "../components/widgets.js";
import { store, useData } from "../store.js";

type Label = Schemas["LabelListItem"];

/** A few colours to pick from at once; the colour input takes any other (the contract's `Color`). */
export const SWATCHES = [
  "#e5484d",
  "#f2994a",
  "#f2c94c",
  "#4cb782",
  "#26b5ce",
  "#5e6ad2",
  "#a970ff",
  "#95a2b3",
];

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/**
 * A colour chosen from swatches (radio buttons, so arrow keys move between them) or the colour input,
 * which takes any `#rrggbb`.
 */
export function ColorField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange(c: string): void;
}) {
  const id = useId();
  return (
    <fieldset className="color-field">
      <legend>{label}</legend>
      <span className="swatches">
        {SWATCHES.map((c) => (
          <label key={c} className="swatch" style={{ background: c }} title={c}>
            <input
              type="radio"
              name={`${id}-swatch`}
              value={c}
              checked={value.toLowerCase() === c}
              onChange={() => onChange(c)}
              aria-label={c}
            />
          </label>
        ))}
      </span>
      <label htmlFor={`${id}-custom`} className="sr-only">
        {label}: any colour
      </label>
      <input id={`${id}-custom`} type="color" value={value} onChange={(e) => onChange(e.target.value)} />
    </fieldset>
  );
}

/**
 * Settings, Labels (contract, "Labels"): the workspace's labels, with how many issues carry each for
 * admins (`counts=1` is theirs); making one with a colour, renaming and recolouring, merging one into
 * another (`mergeLabel`) and deleting one, confirmed with how many issues lose it. Guests are refused by
 * the server, and the tab is not offered to them.
 */
export function LabelsSettings() {
  const { tracker, me } = useApp();
  const admin = me?.role === "admin";
  const labels = useData(`labels:settings:${admin ? "counts" : "plain"}`, () =>
    tracker.labels.list(admin ? { counts: "1" } : {}),
  );
  const id = useId();
  const [name, setName] = useState("");
  const [color, setColor] = useState(SWATCHES[5]!);
  const { submit, busy, error } = useSubmit(async () => {
    await tracker.labels.create({ name: name.trim(), color });
    setName("");
    store.invalidate(["labels"]);
  });
  return (
    <>
      <section aria-labelledby={`${id}-new`} className="settings-section">
        <h3 id={`${id}-new`}>New label</h3>
        <form onSubmit={submit} className="stack settings-form" aria-label="Create a label">
          <label htmlFor={`${id}-name`}>Label name</label>
          <input
            id={`${id}-name`}
            value={name}
            maxLength={100}
            placeholder="bug"
            onChange={(e) => setName(e.target.value)}
            required
          />
          <ColorField label="Colour of the new label" value={color} onChange={setColor} />
          <button type="submit" className="primary" disabled={busy || !name.trim()}>
            {busy ? "Creating…" : "Create label"}
          </button>
          <ErrorNote error={error} />
        </form>
      </section>
      <section aria-labelledby={`${id}-all`} className="settings-section">
        <h3 id={`${id}-all`}>Labels</h3>
        <ErrorNote error={labels.error} />
        {labels.data?.length === 0 && <p className="empty">No labels yet.</p>}
        {!!labels.data?.length && (
          <ul className="plain settings-list" aria-label="Labels">
            {labels.data.map((label) => (
              <LabelItem key={label.id} label={label} all={labels.data!} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

type Mode = "view" | "edit" | "merge" | "delete";

function LabelItem({ label, all }: { label: Label; all: Label[] }) {
  const { tracker, notify } = useApp();
  const id = useId();
  const [mode, setMode] = useState<Mode>("view");
  const [name, setName] = useState(label.name);
  const [color, setColor] = useState(label.color);
  const others = all.filter((l) => l.id !== label.id);
  const [into, setInto] = useState("");
  const toggle = (m: Mode) => setMode(mode === m ? "view" : m);
  const done = (message: string) => {
    store.invalidate(["labels"]);
    setMode("view");
    notify(message);
  };
  const save = useSubmit(async () => {
    const body: Parameters<typeof tracker.labels.update>[1] = {};
    if (name.trim() !== label.name) body.name = name.trim();
    if (color.toLowerCase() !== label.color.toLowerCase()) body.color = color;
    const saved = await tracker.labels.update(label.id, body);
    done(`Label ${label.name} is now ${saved.name}.`);
  });
  const merge = useSubmit(async () => {
    const target = others.find((l) => l.id === into)!;
    const result = await tracker.labels.merge(label.id, { into: target.id });
    done(
      `${label.name} is merged into ${result.label.name}: ${plural(result.moved, "issue")} moved over, ${result.collapsed} already had both.`,
    );
  });
  // How many issues lose the label: asked when deleting, as the counts of the list are admins' only.
  const carrying = useData(mode === "delete" ? `labels:carrying:${label.id}` : null, () =>
    tracker.issues.counts({ label: [label.name], archived: "any", groupBy: "team" }),
  );
  const remove = useSubmit(async () => {
    await tracker.labels.delete(label.id);
    done(`Label ${label.name} is deleted.`);
  });
  const lose = carrying.data?.total;
  return (
    <li aria-label={label.name} className="label-settings">
      <span className="settings-item-main">
        <span className="label-dot" style={{ background: label.color }} aria-hidden="true" />
        <strong>{label.name}</strong>{" "}
        {label.issueCount !== undefined && (
          <span className="muted">
            {plural(label.issueCount, "issue")}
            {label.openIssueCount !== undefined && `, ${label.openIssueCount} open`}
          </span>
        )}
      </span>
      <span className="settings-item-actions">
        <button type="button" aria-expanded={mode === "edit"} onClick={() => toggle("edit")}>
          Edit<span className="sr-only"> {label.name}</span>
        </button>
        <button
          type="button"
          aria-expanded={mode === "merge"}
          onClick={() => toggle("merge")}
          disabled={others.length === 0}
        >
          Merge<span className="sr-only"> {label.name}</span>…
        </button>
        <button
          type="button"
          className="danger-button"
          aria-expanded={mode === "delete"}
          onClick={() => toggle("delete")}
        >
          Delete<span className="sr-only"> {label.name}</span>…
        </button>
      </span>
      {mode === "edit" && (
        <form onSubmit={save.submit} className="stack settings-subform" aria-label={`Edit ${label.name}`}>
          <label htmlFor={`${id}-name`}>Name of {label.name}</label>
          <input
            id={`${id}-name`}
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            required
          />
          <ColorField label={`Colour of ${label.name}`} value={color} onChange={setColor} />
          <button
            type="submit"
            className="primary"
            disabled={
              save.busy ||
              !name.trim() ||
              (name.trim() === label.name && color.toLowerCase() === label.color.toLowerCase())
            }
          >
            Save {label.name}
          </button>
          <ErrorNote error={save.error} />
        </form>
      )}
      {mode === "merge" && (
        <form onSubmit={merge.submit} className="stack settings-subform" aria-label={`Merge ${label.name}`}>
          <label htmlFor={`${id}-into`}>Merge {label.name} into</label>
          <select id={`${id}-into`} value={into} onChange={(e) => setInto(e.target.value)} required>
            <option value="">Choose a label…</option>
            {others.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
          <p className="hint">
            Its issues carry the other label instead, saved views follow, and it is deleted.
          </p>
          <button type="submit" className="primary" disabled={merge.busy || !into}>
            Merge {label.name}
          </button>
          <ErrorNote error={merge.error} />
        </form>
      )}
      {mode === "delete" && (
        <form onSubmit={remove.submit} className="stack confirm-delete" aria-label={`Delete ${label.name}`}>
          <p>
            <strong>
              {lose === undefined
                ? `Counting the issues that carry ${label.name}…`
                : `${plural(lose, "issue")} lose ${label.name}.`}
            </strong>{" "}
            Saved views stop filtering on it. This cannot be undone.
          </p>
          <ErrorNote error={carrying.error} />
          <p className="settings-item-actions">
            <button type="submit" className="danger-button" disabled={remove.busy || lose === undefined}>
              Delete {label.name}
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
