import { useId, useState } from "react";
import { useApp } from "../app-context.js";
import { useSubmit } from "../components/use-submit.js";
import { ErrorNote } from "../components/widgets.js";
import { navigate } from "../router.js";
import { store, useData } from "../store.js";

/**
 * Settings, Workspace: its name (contract, `updateWorkspace`, admins only) and its address, which never
 * changes (the contract's `WorkspaceUpdate` has no slug: keys and links stay valid); the other workspaces
 * the person reaches, to switch to (`setActiveWorkspace`, then the board at `/<slug>`); and a new one
 * (`createWorkspace`), which opens on its first-run screen.
 */
export function WorkspaceSettings() {
  const { tracker, ws, me } = useApp();
  const id = useId();
  const workspaces = useData("workspaces", () => tracker.workspaces.list());
  const workspace = workspaces.data?.find((w) => w.slug === ws);
  const [name, setName] = useState<string | null>(null);
  const shownName = name ?? workspace?.name ?? "";
  const { submit, busy, error } = useSubmit(async () => {
    await tracker.workspaces.update({ name: shownName.trim() });
    setName(null);
    store.invalidate(["workspaces"]);
  });
  const admin = me?.role === "admin";
  return (
    <>
      <ErrorNote error={workspaces.error} />
      {workspace && (
        <form onSubmit={submit} className="stack settings-form" aria-label="Workspace">
          <label htmlFor={`${id}-name`}>Workspace name</label>
          <input
            id={`${id}-name`}
            value={shownName}
            maxLength={100}
            readOnly={!admin}
            aria-describedby={`${id}-hint`}
            onChange={(e) => setName(e.target.value)}
            required
          />
          <p id={`${id}-hint`} className="hint">
            Its address: <code>/{workspace.slug}</code>, which stays as it is so links and keys keep working
            {me && !admin ? ". Only workspace admins may change the workspace." : "."}
          </p>
          {admin && (
            <button
              type="submit"
              className="primary"
              disabled={busy || !shownName.trim() || shownName.trim() === workspace.name}
            >
              Save
            </button>
          )}
          <ErrorNote error={error} />
        </form>
      )}
      {!!workspaces.data && workspaces.data.length > 1 && (
        <section aria-labelledby={`${id}-switch`} className="settings-section">
          <h3 id={`${id}-switch`}>Your workspaces</h3>
          <SwitchWorkspace />
        </section>
      )}
      <section aria-labelledby={`${id}-new`} className="settings-section">
        <h3 id={`${id}-new`}>New workspace</h3>
        <CreateWorkspaceForm />
      </section>
    </>
  );
}

/** The workspaces the person reaches (contract, `listWorkspaces`); opening one makes it the active one. */
function SwitchWorkspace() {
  const { tracker, ws } = useApp();
  const workspaces = useData("workspaces", () => tracker.workspaces.list());
  const [error, setError] = useState<unknown>(null);
  const open = async (slug: string) => {
    setError(null);
    try {
      await tracker.workspaces.setActive(slug);
      navigate(`/${slug}`);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <ul className="plain settings-list" aria-label="Workspaces">
        {workspaces.data?.map((w) => (
          <li key={w.id} aria-label={w.name}>
            <span className="settings-item-main">
              <strong>{w.name}</strong> <span className="muted">/{w.slug}</span>{" "}
              <span className="badge">{w.role}</span>
            </span>
            {w.slug === ws ? (
              <span className="muted">Open now</span>
            ) : (
              <button type="button" onClick={() => void open(w.slug)} aria-label={`Switch to ${w.name}`}>
                Switch
              </button>
            )}
          </li>
        ))}
      </ul>
      <ErrorNote error={error} />
    </>
  );
}

/** A new workspace with the person as its admin (contract, `createWorkspace`); it opens on its first run. */
function CreateWorkspaceForm() {
  const { tracker } = useApp();
  const id = useId();
  const [name, setName] = useState("");
  const { submit, busy, error } = useSubmit(async () => {
    const made = await tracker.workspaces.create({ name: name.trim() });
    await tracker.workspaces.setActive(made.slug);
    navigate(`/${made.slug}`);
  });
  return (
    <form onSubmit={submit} className="stack settings-form" aria-label="Create a workspace">
      <label htmlFor={`${id}-name`}>New workspace's name</label>
      <input
        id={`${id}-name`}
        value={name}
        maxLength={100}
        placeholder="Acme Labs"
        aria-describedby={`${id}-hint`}
        onChange={(e) => setName(e.target.value)}
        required
      />
      <p id={`${id}-hint`} className="hint">
        A workspace of its own: its teams, people and issues apart from this one's. You are its admin.
      </p>
      <button type="submit" className="primary" disabled={busy || !name.trim()}>
        {busy ? "Creating…" : "Create workspace"}
      </button>
      <ErrorNote error={error} />
    </form>
  );
}
