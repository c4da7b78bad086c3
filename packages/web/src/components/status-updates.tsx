import type { QueryOf, Schemas } from "@tracker/sdk";
import { useState } from "react";
import { useApp } from "../app-context.js";
import { store, useData } from "../store.js";
import { Markdown } from "./markdown.js";
import { useSubmit } from "./use-submit.js";
import { ErrorNote, HealthBadge } from "./widgets.js";

/** Exactly one subject of the contract's `listUpdates` / `createUpdate`: here a project or an initiative. */
export type UpdateSubject =
  | Required<Pick<QueryOf<"listUpdates">, "project">>
  | Required<Pick<QueryOf<"listUpdates">, "initiative">>;

export function updatesKey(subject: UpdateSubject): string {
  return "project" in subject
    ? `updates:project:${subject.project}`
    : `updates:initiative:${subject.initiative}`;
}

/**
 * A project's or an initiative's status updates, newest first, and a form to post one. The server stamps
 * each update with the subject's health at posting time, which is shown beside the form.
 */
export function StatusUpdates({
  subject,
  health,
  noun,
}: {
  subject: UpdateSubject;
  health: Schemas["Health"] | undefined;
  noun: "project" | "initiative";
}) {
  const { tracker, notify } = useApp();
  const key = updatesKey(subject);
  const updates = useData(key, () => tracker.updates.list(subject));
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const { submit, busy, error } = useSubmit(async () => {
    const update = await tracker.updates.create({ ...subject, title: title.trim(), content });
    store.set(key, (list) => [
      update,
      ...(list as Schemas["StatusUpdate"][]).filter((u) => u.id !== update.id),
    ]);
    // A read still in flight may have been answered before the update existed.
    if (store.get(key)?.loading) store.invalidate([key]);
    setTitle("");
    setContent("");
    notify(`Posted “${update.title}”.`);
  });

  return (
    <section aria-labelledby="status-updates">
      <h2 id="status-updates">Status updates</h2>
      <ErrorNote error={updates.error} />
      {updates.data && updates.data.length === 0 && <p className="muted">No status updates yet.</p>}
      <ol className="updates">
        {updates.data?.map((u) => (
          <li key={u.id} className="update">
            <article aria-labelledby={`update-${u.id}`}>
              <h3 id={`update-${u.id}`}>
                {u.title} <HealthBadge health={u.health} />
              </h3>
              <p className="muted small">
                {u.creator.name} ·{" "}
                <time dateTime={u.createdAt}>{new Date(u.createdAt).toLocaleString()}</time>
              </p>
              <Markdown text={u.content} />
              {u.issues.length > 0 && (
                <p className="small">Cites {u.issues.map((i) => i.identifier).join(", ")}</p>
              )}
            </article>
          </li>
        ))}
      </ol>
      <form className="stack update-form" onSubmit={submit} aria-labelledby="post-update">
        <h3 id="post-update">Post an update</h3>
        <p className="muted small">
          Posted with the {noun}'s health as it is now{health ? ": " : "."}
          {health && <HealthBadge health={health} />}
        </p>
        <label>
          Update title
          <input value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={255} />
        </label>
        <label>
          What happened (Markdown)
          <textarea rows={4} value={content} onChange={(e) => setContent(e.target.value)} required />
        </label>
        <ErrorNote error={error} />
        <div className="row">
          <button type="submit" className="primary" disabled={busy || !title.trim() || !content.trim()}>
            Post update
          </button>
        </div>
      </form>
    </section>
  );
}
