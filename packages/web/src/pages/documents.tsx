import type { Schemas } from "@tracker/sdk";
import { useState } from "react";
import { useApp } from "../app-context.js";
import { Markdown } from "../components/markdown.js";
import { useSubmit } from "../components/use-submit.js";
import { ErrorNote, Pending, TeamSelect } from "../components/widgets.js";
import { Link, navigate, useLocation } from "../router.js";
import { store, useData } from "../store.js";

type Document = Schemas["Document"];

export function documentPath(ws: string, document: { id: string }): string {
  return `/${ws}/document/${document.id}`;
}

/** The documents of the teams the caller sees, most recently updated first, searchable (`?q=`). */
export function DocumentsPage() {
  const { tracker, ws } = useApp();
  const { path, search } = useLocation();
  const q = search.get("q")?.trim() ?? "";
  const documents = useData(`documents:${q}`, () => tracker.documents.list(q ? { q } : {}));
  const [text, setText] = useState(q);
  return (
    <div className="page">
      <div className="page-head">
        <h1>Documents</h1>
        <Link className="button primary" to={`/${ws}/documents/new`}>
          New document
        </Link>
      </div>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(text.trim() ? `${path}?q=${encodeURIComponent(text.trim())}` : path, { replace: true });
        }}
      >
        <label>
          Search documents
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={documents.error} />
      {documents.data && documents.data.length === 0 && (
        <p className="empty">{q ? "No document matches." : "No documents yet."}</p>
      )}
      {documents.data && documents.data.length > 0 && (
        <table className="issues">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Team</th>
              <th scope="col">By</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {documents.data.map((d) => (
              <tr key={d.id}>
                <td>
                  <Link data-nav-item to={documentPath(ws, d)}>
                    {d.title}
                  </Link>
                </td>
                <td>{d.team.name}</td>
                <td>{d.creator.name}</td>
                <td>
                  <time dateTime={d.updatedAt}>{new Date(d.updatedAt).toLocaleString()}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!documents.data && documents.loading && <p className="muted">Loading…</p>}
    </div>
  );
}

/** One document: its Markdown rendered (as React elements, never HTML), editable in place. */
export function DocumentPage({ id }: { id: string }) {
  const { tracker, ws } = useApp();
  const document = useData(`document:${id}`, () => tracker.documents.get(id));
  const [editing, setEditing] = useState(false);
  const doc = document.data;
  if (!doc) {
    return <Pending title="Document" error={document.error} />;
  }
  return (
    <article className="page detail-page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to={`/${ws}/documents`}>Documents</Link> › <span>{doc.team.name}</span>
      </nav>
      {editing ? (
        <DocumentForm
          document={doc}
          onSaved={(saved) => {
            store.set(`document:${id}`, () => saved);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <>
          <div className="page-head">
            <h1>{doc.title}</h1>
            <button type="button" onClick={() => setEditing(true)}>
              Edit document
            </button>
          </div>
          <p className="muted small">
            {doc.creator.name} · updated{" "}
            <time dateTime={doc.updatedAt}>{new Date(doc.updatedAt).toLocaleString()}</time>
          </p>
          <section aria-label="Content" className="document-content">
            {doc.content ? <Markdown text={doc.content} /> : <p className="muted">Empty.</p>}
          </section>
          {doc.issues.length > 0 && (
            <section aria-labelledby="document-issues">
              <h2 id="document-issues">Linked issues</h2>
              <ul className="plain">
                {doc.issues.map((i) => (
                  <li key={i.identifier}>
                    <Link to={`/${ws}/issue/${i.identifier}`}>{i.identifier}</Link> {i.title}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </article>
  );
}

/** A new document in a team of the caller's. */
export function NewDocumentPage() {
  return (
    <div className="page detail-page">
      <DocumentForm document={undefined} onSaved={undefined} onCancel={() => window.history.back()} />
    </div>
  );
}

/**
 * Creates a document or edits one. A refused save keeps everything typed, with the problem's detail.
 * Creating opens the new document; editing hands the saved one to `onSaved`.
 */
function DocumentForm({
  document,
  onSaved,
  onCancel,
}: {
  document: Document | undefined;
  onSaved: ((saved: Document) => void) | undefined;
  onCancel(): void;
}) {
  const { tracker, teams, ws, notify } = useApp();
  const [title, setTitle] = useState(document?.title ?? "");
  const [picked, setTeam] = useState(document?.team.key ?? "");
  // Opened directly, the page may render before the teams arrive: the first one is the default.
  const team = picked || teams[0]?.key || "";
  const [content, setContent] = useState(document?.content ?? "");
  const [preview, setPreview] = useState(false);
  const { submit, busy, error } = useSubmit(async () => {
    const body = { title: title.trim(), team, content: content.trim() ? content : null };
    const saved = document
      ? await tracker.documents.update(document.id, body)
      : await tracker.documents.create(body);
    store.invalidate(["documents:"]);
    notify(document ? `Saved “${saved.title}”.` : `Created “${saved.title}”.`);
    if (onSaved) onSaved(saved);
    else {
      store.set(`document:${saved.id}`, () => saved);
      navigate(documentPath(ws, saved), { replace: true });
    }
  });

  return (
    <form className="stack document-form" onSubmit={submit} aria-labelledby="document-form-title">
      <h1 id="document-form-title">{document ? `Edit “${document.title}”` : "New document"}</h1>
      <label>
        Title
        <input value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={255} />
      </label>
      <TeamSelect value={team} onChange={setTeam} />
      <label>
        Content (Markdown)
        <textarea rows={14} value={content} onChange={(e) => setContent(e.target.value)} />
      </label>
      <label className="check">
        <input type="checkbox" checked={preview} onChange={(e) => setPreview(e.target.checked)} />
        Show a preview
      </label>
      {preview && (
        <section aria-label="Preview" className="document-content preview">
          <Markdown text={content} />
        </section>
      )}
      <ErrorNote error={error} />
      <div className="row">
        <button type="submit" className="primary" disabled={busy || !title.trim() || !team}>
          {document ? "Save document" : "Create document"}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
