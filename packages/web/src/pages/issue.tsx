import {
  ISSUE_RELATION_TYPES,
  PRIORITY_NAMES,
  type ResponseOf,
  type Schemas,
  type Tracker,
} from "@tracker/sdk";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { useApp } from "../app-context.js";
import { Markdown } from "../components/markdown.js";
import { ErrorNote, priorityLabel, StateIcon } from "../components/widgets.js";
import { applyIssue } from "../issue-lists.js";
import { Link, navigate } from "../router.js";
import { describeError } from "../session.js";
import { store, useData } from "../store.js";

type PageData = ResponseOf<"getIssuePageData">;
type Update = Parameters<ReturnType<typeof useApp>["tracker"]["issues"]["update"]>[1];

/**
 * The issue page, from one page-data read (plus the issue itself for its due date, which page-data does
 * not carry). An old identifier of a moved issue is answered with the issue under its new identifier:
 * the URL is replaced with the canonical one.
 */
/** Starts loading an issue's page (a board card pointed at), so opening it is instant. */
export function prefetchIssue(tracker: Tracker, identifier: string): void {
  store.ensure(`page:${identifier}`, () => tracker.issues.pageData(identifier));
  store.ensure(`issue:${identifier}`, () => tracker.issues.get(identifier));
}

export function IssuePage({ identifier }: { identifier: string }) {
  const { tracker, ws } = useApp();
  const page = useData<PageData>(`page:${identifier}`, () => tracker.issues.pageData(identifier));
  // The due date (from the issue itself) waits for the page data, which the page is drawn from: on a busy
  // server the two would otherwise compete for it.
  const detail = useData(page.data ? `issue:${identifier}` : null, () => tracker.issues.get(identifier));
  const canonical = page.data?.issue.identifier;

  useEffect(() => {
    if (canonical && canonical !== identifier) navigate(`/${ws}/issue/${canonical}`, { replace: true });
  }, [canonical, identifier, ws]);

  if (page.error) {
    return (
      <div className="page">
        <h1>{identifier}</h1>
        <ErrorNote error={page.error} />
      </div>
    );
  }
  if (!page.data) {
    // What a board or list already shows of the issue appears at once; the rest fills in.
    const known = cachedIssue(identifier);
    return (
      <article className="issue-page">
        <div className="issue-main">
          {known && (
            <h1 className="issue-title">
              <span className="title-text">{known.title}</span>
            </h1>
          )}
          <p className="muted">Loading…</p>
        </div>
      </article>
    );
  }
  return <IssueView key={page.data.issue.id} data={page.data} dueDate={detail.data?.dueDate} />;
}

function cachedIssue(identifier: string): Schemas["Issue"] | undefined {
  for (const key of store.keys(["issues:"])) {
    const page = store.get(key)?.data as { items: Schemas["Issue"][] } | undefined;
    const found = page?.items.find((i) => i.identifier === identifier);
    if (found) return found;
  }
  return undefined;
}

function IssueView({ data, dueDate }: { data: PageData; dueDate: string | null | undefined }) {
  const { tracker, ws, notify } = useApp();
  const { issue } = data;
  const [error, setError] = useState<unknown>(null);

  /** Saves a change; true when it was saved. On failure the editor keeps what was typed. */
  const save = async (change: Update): Promise<boolean> => {
    setError(null);
    try {
      applyIssue(await tracker.issues.update(issue.identifier, change));
      store.invalidate([`page:${issue.identifier}`, `issue:${issue.identifier}`]);
      return true;
    } catch (err) {
      setError(err);
      notify(`Not saved: ${describeError(err)}`, "error");
      return false;
    }
  };

  const state = issue.team.states.find((s) => s.id === issue.stateId);
  return (
    <article className="issue-page">
      <div className="issue-main">
        <nav className="crumbs" aria-label="Breadcrumb">
          <Link to={`/${ws}/team/${issue.team.key}/board`}>{issue.team.name}</Link> ›{" "}
          {issue.parent && (
            <>
              <Link to={`/${ws}/issue/${issue.parent.identifier}`}>{issue.parent.identifier}</Link> ›{" "}
            </>
          )}
          <span>{issue.identifier}</span>
        </nav>
        <ErrorNote error={error} />
        <EditableTitle title={issue.title} onSave={(title) => save({ title })} />
        <EditableDescription text={issue.description} onSave={(description) => save({ description })} />
        <SubIssues data={data} />
        <Relations data={data} />
        <Links data={data} />
        <Comments data={data} />
      </div>
      <aside className="issue-side" aria-label="Properties">
        <Field label="State">
          <select
            aria-label="State"
            value={issue.stateId}
            onChange={(e) => {
              const next = issue.team.states.find((s) => s.id === e.target.value);
              if (next) save({ state: next.name });
            }}
          >
            {issue.team.states.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          {state && <StateIcon type={state.type} />}
        </Field>
        <Field label="Priority">
          <select
            aria-label="Priority"
            value={issue.priority}
            onChange={(e) => save({ priority: Number(e.target.value) as Schemas["Priority"] })}
          >
            {PRIORITY_NAMES.map((_, n) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: priorities are their index
              <option key={n} value={n}>
                {priorityLabel(n)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Assignee">
          <select
            aria-label="Assignee"
            value={issue.assigneeId ?? ""}
            onChange={(e) => save({ assignee: e.target.value || null })}
          >
            <option value="">Unassigned</option>
            {data.members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Labels">
          <LabelsEditor current={issue.labels.map((l) => l.name)} onSave={(labels) => save({ labels })} />
        </Field>
        <Field label="Project">
          <select
            aria-label="Project"
            value={issue.projectId ?? ""}
            onChange={(e) => save({ project: e.target.value || null })}
          >
            <option value="">No project</option>
            {data.projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
        {issue.team.cyclesEnabled && (
          <Field label="Cycle">
            <select
              aria-label="Cycle"
              value={issue.cycleId ?? ""}
              onChange={(e) => {
                const cycle = data.cycles.find((c) => c.id === e.target.value);
                save({ cycle: cycle ? cycle.number : null });
              }}
            >
              <option value="">No cycle</option>
              {data.cycles.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name ?? `Cycle ${c.number}`}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field label="Estimate">
          {data.estimates.length > 0 ? (
            <select
              aria-label="Estimate"
              value={issue.estimate ?? ""}
              onChange={(e) => save({ estimate: e.target.value === "" ? null : Number(e.target.value) })}
            >
              <option value="">No estimate</option>
              {data.estimates.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          ) : (
            <span className="muted">Estimates are off for this team</span>
          )}
        </Field>
        <Field label="Due date">
          <input
            type="date"
            aria-label="Due date"
            value={dueDate ?? ""}
            onChange={(e) => save({ dueDate: e.target.value || null })}
          />
        </Field>
        <p className="muted small">
          Created {new Date(issue.createdAt).toLocaleString()}
          <br />
          Updated {new Date(issue.updatedAt).toLocaleString()}
        </p>
      </aside>
    </article>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="field">
      <span className="field-label">{label}</span>
      <div>{children}</div>
    </div>
  );
}

function EditableTitle({ title, onSave }: { title: string; onSave(title: string): Promise<boolean> }) {
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null) {
    return (
      <h1 className="issue-title">
        <button
          type="button"
          className="editable title-button"
          onClick={() => setDraft(title)}
          aria-label={`Title: ${title}. Edit`}
        >
          {title}
        </button>
      </h1>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (draft.trim() === title) return setDraft(null);
    if (await onSave(draft.trim())) setDraft(null);
  };
  return (
    <form onSubmit={submit} className="inline-edit">
      <label className="sr-only" htmlFor="title-input">
        Title
      </label>
      <input
        id="title-input"
        className="title-input"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => e.key === "Escape" && setDraft(null)}
        // biome-ignore lint/a11y/noAutofocus: opened by the person to edit
        autoFocus
      />
      <button type="submit" className="primary">
        Save
      </button>
      <button type="button" onClick={() => setDraft(null)}>
        Cancel
      </button>
    </form>
  );
}

function EditableDescription({
  text,
  onSave,
}: {
  text: string | null;
  onSave(text: string | null): Promise<boolean>;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null) {
    return (
      <section className="description" aria-label="Description">
        {text ? <Markdown text={text} /> : <p className="muted">No description.</p>}
        <button type="button" onClick={() => setDraft(text ?? "")}>
          Edit description
        </button>
      </section>
    );
  }
  return (
    <form
      className="stack"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await onSave(draft.trim() ? draft : null)) setDraft(null);
      }}
    >
      <label htmlFor="description-input">Description (Markdown)</label>
      <textarea id="description-input" rows={8} value={draft} onChange={(e) => setDraft(e.target.value)} />
      <div className="row">
        <button type="submit" className="primary">
          Save description
        </button>
        <button type="button" onClick={() => setDraft(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function LabelsEditor({
  current,
  onSave,
}: {
  current: string[];
  onSave(labels: string[]): Promise<boolean>;
}) {
  const { tracker } = useApp();
  const labels = useData("labels", () => tracker.labels.list());
  return (
    <details className="labels-editor">
      <summary>{current.length ? current.join(", ") : "No labels"}</summary>
      <fieldset>
        <legend className="sr-only">Labels</legend>
        {labels.data?.map((l) => (
          <label key={l.id} className="check">
            <input
              type="checkbox"
              checked={current.includes(l.name)}
              onChange={(e) =>
                onSave(e.target.checked ? [...current, l.name] : current.filter((n) => n !== l.name))
              }
            />
            {l.name}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

function SubIssues({ data }: { data: PageData }) {
  const { ws, openCreate } = useApp();
  return (
    <section aria-labelledby="sub-issues">
      <h2 id="sub-issues">Sub-issues</h2>
      {data.subIssues.length === 0 && <p className="muted">None.</p>}
      <ul className="plain">
        {data.subIssues.map((s) => {
          const id = `${s.team.key}-${s.number}`;
          return (
            <li key={s.id}>
              <StateIcon type={s.state.type} /> <Link to={`/${ws}/issue/${id}`}>{id}</Link> {s.title}{" "}
              <span className="muted">{s.state.name}</span>
            </li>
          );
        })}
      </ul>
      <button
        type="button"
        onClick={() => openCreate({ team: data.issue.team.key, parent: data.issue.identifier })}
      >
        Add sub-issue
      </button>
    </section>
  );
}

const RELATION_WORDS: Record<Schemas["IssueRelationSide"], string> = {
  blocks: "Blocks",
  blocked_by: "Blocked by",
  related: "Related to",
  duplicate: "Duplicate of",
  duplicated_by: "Duplicated by",
};

function Relations({ data }: { data: PageData }) {
  const { tracker, ws } = useApp();
  const identifier = data.issue.identifier;
  const [type, setType] = useState<(typeof ISSUE_RELATION_TYPES)[number]>("related");
  const [other, setOther] = useState("");
  const [error, setError] = useState<unknown>(null);
  const refresh = () => store.invalidate([`page:${identifier}`]);
  return (
    <section aria-labelledby="relations">
      <h2 id="relations">Relations</h2>
      {data.relations.length === 0 && <p className="muted">None.</p>}
      <ul className="plain">
        {data.relations.map((r) => (
          <li key={r.id}>
            {RELATION_WORDS[r.type]}{" "}
            <Link to={`/${ws}/issue/${r.issue.identifier}`}>{r.issue.identifier}</Link> {r.issue.title}{" "}
            <span className="muted">{r.issue.state.name}</span>{" "}
            <button
              type="button"
              aria-label={`Remove relation to ${r.issue.identifier}`}
              onClick={() => tracker.issues.deleteRelation(identifier, r.id).then(refresh, setError)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        className="row"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          try {
            await tracker.issues.addRelation(identifier, { type, issue: other.trim() });
            setOther("");
            refresh();
          } catch (err) {
            setError(err);
          }
        }}
      >
        <label>
          Relation
          <select value={type} onChange={(e) => setType(e.target.value as typeof type)}>
            {ISSUE_RELATION_TYPES.map((t) => (
              <option key={t} value={t}>
                {RELATION_WORDS[t as Schemas["IssueRelationSide"]] ?? t}
              </option>
            ))}
          </select>
        </label>
        <label>
          Issue
          <input value={other} onChange={(e) => setOther(e.target.value)} placeholder="ENG-12" required />
        </label>
        <button type="submit">Add relation</button>
      </form>
      <ErrorNote error={error} />
    </section>
  );
}

function Links({ data }: { data: PageData }) {
  const { tracker } = useApp();
  const identifier = data.issue.identifier;
  const [url, setUrl] = useState("");
  const [title, setTitle] = useState("");
  const [error, setError] = useState<unknown>(null);
  return (
    <section aria-labelledby="links">
      <h2 id="links">Links</h2>
      {data.links.length === 0 && <p className="muted">None.</p>}
      <ul className="plain">
        {data.links.map((l) => (
          <li key={l.id}>
            <a
              href={/^https?:/i.test(l.url) ? l.url : undefined}
              rel="noopener noreferrer nofollow"
              target="_blank"
            >
              {l.title ?? l.url}
            </a>
          </li>
        ))}
      </ul>
      <form
        className="row"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          try {
            await tracker.issues.addLink(identifier, {
              url: url.trim(),
              ...(title.trim() ? { title: title.trim() } : {}),
            });
            setUrl("");
            setTitle("");
            store.invalidate([`page:${identifier}`]);
          } catch (err) {
            setError(err);
          }
        }}
      >
        <label>
          URL
          <input
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            required
            placeholder="https://…"
          />
        </label>
        <label>
          Link title
          <input value={title} onChange={(e) => setTitle(e.target.value)} />
        </label>
        <button type="submit">Add link</button>
      </form>
      <ErrorNote error={error} />
    </section>
  );
}

function Comments({ data }: { data: PageData }) {
  const { tracker, me } = useApp();
  const identifier = data.issue.identifier;
  const draftKey = `tracker.draft.comment.${data.issue.id}`;
  // A comment being written survives a failed save and a reload.
  const [body, setBody] = useState(() => sessionStorage.getItem(draftKey) ?? "");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (body) sessionStorage.setItem(draftKey, body);
    else sessionStorage.removeItem(draftKey);
  }, [body, draftKey]);

  return (
    <section aria-labelledby="comments">
      <h2 id="comments">Comments</h2>
      <ol className="comments">
        {data.comments.map((c) => (
          <CommentItem key={c.id} identifier={identifier} comment={c} mine={c.authorId === me?.id} />
        ))}
      </ol>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            await tracker.comments.create(identifier, { body });
            setBody("");
            store.invalidate([`page:${identifier}`]);
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <label htmlFor="new-comment">Add a comment</label>
        <textarea id="new-comment" rows={3} value={body} onChange={(e) => setBody(e.target.value)} required />
        <div className="row">
          <button type="submit" className="primary" disabled={busy || !body.trim()}>
            Comment
          </button>
        </div>
        <ErrorNote error={error} />
      </form>
    </section>
  );
}

function CommentItem({
  identifier,
  comment,
  mine,
}: {
  identifier: string;
  comment: Schemas["IssuePageComment"];
  mine: boolean;
}) {
  const { tracker } = useApp();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  return (
    <li className="comment">
      <p className="comment-head">
        <strong>{comment.authorName}</strong>{" "}
        <time dateTime={comment.createdAt} className="muted">
          {new Date(comment.createdAt).toLocaleString()}
        </time>
        {comment.updatedAt !== comment.createdAt && <span className="muted"> (edited)</span>}
      </p>
      {draft === null ? (
        <>
          <Markdown text={comment.body} />
          {mine && (
            <button type="button" onClick={() => setDraft(comment.body)} aria-label="Edit comment">
              Edit
            </button>
          )}
        </>
      ) : (
        <form
          className="stack"
          onSubmit={async (e) => {
            e.preventDefault();
            setError(null);
            try {
              await tracker.comments.update(identifier, comment.id, { body: draft });
              setDraft(null);
              store.invalidate([`page:${identifier}`]);
            } catch (err) {
              setError(err);
            }
          }}
        >
          <label htmlFor={`edit-${comment.id}`} className="sr-only">
            Edit comment
          </label>
          <textarea
            id={`edit-${comment.id}`}
            rows={3}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
          <div className="row">
            <button type="submit" className="primary">
              Save comment
            </button>
            <button type="button" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
          <ErrorNote error={error} />
        </form>
      )}
    </li>
  );
}
