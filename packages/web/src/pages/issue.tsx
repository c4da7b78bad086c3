import { ISSUE_RELATION_TYPES, type ResponseOf, type Schemas, type Tracker } from "@tracker/sdk";
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { useApp } from "../app-context.js";
import { archiveIssue, restoreIssue } from "../archive.js";
import { AgentSessions } from "../components/agent-sessions.js";
import { AttachmentList, insertAt, UploadProgressList, useFileDrop } from "../components/attachments.js";
import { EditedMark } from "../components/comment-revisions.js";
import { History } from "../components/history.js";
import { AttachmentUrls, Markdown, toggleTask } from "../components/markdown.js";
import { Picker } from "../components/picker.js";
import {
  Avatar,
  ErrorNote,
  LabelDot,
  PriorityIcon,
  priorityLabel,
  StateIcon,
} from "../components/widgets.js";
import { previewChange, saveLabels, updateIssue } from "../issue-edit.js";
import { removeIssue } from "../issue-lists.js";
import { Link, navigate, useTitle } from "../router.js";
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
  return (
    <IssueView
      key={page.data.issue.id}
      data={page.data}
      dueDate={detail.data?.dueDate}
      archivedAt={detail.data?.archivedAt}
    />
  );
}

function cachedIssue(identifier: string): Schemas["Issue"] | undefined {
  for (const key of store.keys(["issues:"])) {
    const page = store.get(key)?.data as { items: Schemas["Issue"][] } | undefined;
    const found = page?.items.find((i) => i.identifier === identifier);
    if (found) return found;
  }
  return undefined;
}

/** The properties the side panel shows and edits, as the page data (or a save not answered yet) has them. */
interface Props {
  stateId: string;
  priority: number;
  assigneeId: string | null;
  labels: string[];
  projectId: string | null;
  cycleId: string | null;
  estimate: number | null;
  dueDate: string | null | undefined;
}

function IssueView({
  data,
  dueDate,
  archivedAt,
}: {
  data: PageData;
  dueDate: string | null | undefined;
  /** From the issue itself, like the due date: when it was archived, null when it is not. */
  archivedAt: string | null | undefined;
}) {
  const { tracker, ws, notify } = useApp();
  const { issue } = data;
  const labels = useData("labels", () => tracker.labels.list());
  // Edits show at once; each key is dropped when its save is answered (the page data then has it) or
  // refused (the page data still has the old value: rolled back).
  const [overlay, setOverlay] = useState<Partial<Props>>({});
  const server: Props = {
    stateId: issue.stateId,
    priority: issue.priority,
    assigneeId: issue.assigneeId,
    labels: issue.labels.map((l) => l.name),
    projectId: issue.projectId,
    cycleId: issue.cycleId,
    estimate: issue.estimate,
    dueDate,
  };
  const shown: Props = { ...server, ...overlay };
  useTitle(`${issue.identifier} ${issue.title}`);

  const settle = (part: Partial<Props>) =>
    setOverlay((o) => {
      const next = { ...o };
      for (const key of Object.keys(part) as (keyof Props)[]) if (next[key] === part[key]) delete next[key];
      return next;
    });

  /** Saves a change; true when it was saved. A refusal is shown, and the change rolled back. */
  const save = async (change: Update, part: Partial<Props> = {}): Promise<boolean> => {
    setOverlay((o) => ({ ...o, ...part }));
    try {
      await updateIssue(tracker, issue, change, (i) => previewChange(i, change));
      settle(part);
      return true;
    } catch (err) {
      settle(part);
      notify(`${issue.identifier} not saved: ${describeError(err)}`, "error");
      return false;
    }
  };
  const setLabels = (names: string[]) => {
    setOverlay((o) => ({ ...o, labels: names }));
    saveLabels(tracker, issue, shown.labels, names).then(
      () => settle({ labels: names }),
      (err) => {
        settle({ labels: names });
        notify(`${issue.identifier} labels not saved: ${describeError(err)}`, "error");
      },
    );
  };

  const state = issue.team.states.find((s) => s.id === shown.stateId);
  const assignee = data.members.find((m) => m.id === shown.assigneeId);
  const project = data.projects.find((p) => p.id === shown.projectId);
  const cycle = data.cycles.find((c) => c.id === shown.cycleId);
  const colorOf = (name: string) =>
    issue.labels.find((l) => l.name === name)?.color ?? labels.data?.find((l) => l.name === name)?.color;
  const labelNames = [...new Set([...(labels.data ?? []).map((l) => l.name), ...shown.labels])];
  const attachmentUrls = new Map(data.media.map((m) => [m.id, m.url]));
  return (
    <AttachmentUrls.Provider value={attachmentUrls}>
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
          {archivedAt && (
            <div className="archived-banner" role="status" aria-label="Archived">
              <span>
                <strong>Archived</strong> {new Date(archivedAt).toLocaleDateString()}: hidden from boards,
                lists and progress.
              </span>
              <button type="button" onClick={() => void restoreIssue(tracker, notify, issue.identifier)}>
                Restore
              </button>
            </div>
          )}
          <EditableTitle title={issue.title} onSave={(title) => save({ title })} />
          <EditableDescription
            identifier={issue.identifier}
            text={issue.description}
            onSave={(description) => save({ description })}
          />
          <AttachmentList media={data.media} />
          <SubIssues data={data} />
          <Relations data={data} />
          <Links data={data} />
          <PullRequests data={data} />
          <AgentSessions identifier={issue.identifier} />
          <Comments data={data} />
          <History
            identifier={issue.identifier}
            version={`${issue.updatedAt}:${data.relations.map((r) => r.id).join(",")}:${data.comments.length}`}
          />
        </div>
        <aside className="issue-side" aria-label="Properties">
          <Field label="State">
            <Picker
              label="State"
              shortcut="s"
              value={shown.stateId}
              options={issue.team.states.map((s) => ({
                value: s.id,
                label: s.name,
                icon: <StateIcon type={s.type} color={s.color} />,
              }))}
              onChange={(id) => {
                const next = issue.team.states.find((s) => s.id === id);
                if (next) void save({ state: next.name }, { stateId: id });
              }}
            >
              {state && <StateIcon type={state.type} color={state.color} />} {state?.name}
            </Picker>
          </Field>
          <Field label="Priority">
            <Picker
              label="Priority"
              shortcut="p"
              value={String(shown.priority)}
              options={PRIORITY_ORDER.map((n) => ({
                value: String(n),
                label: priorityLabel(n),
                icon: <PriorityIcon priority={n} />,
              }))}
              onChange={(v) => {
                const priority = Number(v) as Schemas["Priority"];
                void save({ priority }, { priority });
              }}
            >
              <PriorityIcon priority={shown.priority} /> {priorityLabel(shown.priority)}
            </Picker>
          </Field>
          <Field label="Assignee">
            <Picker
              label="Assignee"
              shortcut="a"
              value={shown.assigneeId ?? ""}
              options={[
                { value: "", label: "Unassigned", icon: <Avatar name={null} /> },
                ...data.members.map((m) => ({ value: m.id, label: m.name, icon: <Avatar name={m.name} /> })),
              ]}
              onChange={(id) => void save({ assignee: id || null }, { assigneeId: id || null })}
            >
              <Avatar name={assignee?.name} /> {assignee?.name ?? "Unassigned"}
            </Picker>
          </Field>
          <Field label="Labels">
            <Picker
              label="Labels"
              shortcut="l"
              multiple
              value={shown.labels}
              options={labelNames.map((name) => ({
                value: name,
                label: name,
                icon: <LabelDot color={colorOf(name)} />,
              }))}
              onChange={setLabels}
            >
              {shown.labels.length === 0 && <span className="muted">No labels</span>}
              {shown.labels.map((name) => (
                <span key={name} className="label-chip">
                  <LabelDot color={colorOf(name)} />
                  {name}
                </span>
              ))}
            </Picker>
          </Field>
          <Field label="Project">
            <Picker
              label="Project"
              value={shown.projectId ?? ""}
              options={[
                { value: "", label: "No project" },
                ...data.projects.map((p) => ({ value: p.id, label: p.name })),
              ]}
              onChange={(id) => void save({ project: id || null }, { projectId: id || null })}
            >
              {project?.name ?? <span className="muted">No project</span>}
            </Picker>
          </Field>
          {issue.team.cyclesEnabled && (
            <Field label="Cycle">
              <Picker
                label="Cycle"
                value={shown.cycleId ?? ""}
                options={[
                  { value: "", label: "No cycle" },
                  ...data.cycles.map((c) => ({ value: c.id, label: c.name ?? `Cycle ${c.number}` })),
                ]}
                onChange={(id) => {
                  const next = data.cycles.find((c) => c.id === id);
                  void save({ cycle: next ? next.number : null }, { cycleId: id || null });
                }}
              >
                {cycle ? (cycle.name ?? `Cycle ${cycle.number}`) : <span className="muted">No cycle</span>}
              </Picker>
            </Field>
          )}
          <Field label="Estimate">
            {data.estimates.length > 0 ? (
              <Picker
                label="Estimate"
                value={shown.estimate === null ? "" : String(shown.estimate)}
                options={[
                  { value: "", label: "No estimate" },
                  ...data.estimates.map((o) => ({ value: String(o.value), label: o.label })),
                ]}
                onChange={(v) => {
                  const estimate = v === "" ? null : Number(v);
                  void save({ estimate }, { estimate });
                }}
              >
                {data.estimates.find((o) => o.value === shown.estimate)?.label ?? (
                  <span className="muted">No estimate</span>
                )}
              </Picker>
            ) : (
              <span className="muted">Estimates are off for this team</span>
            )}
          </Field>
          <Field label="Due date">
            <input
              type="date"
              aria-label="Due date"
              value={shown.dueDate ?? ""}
              onChange={(e) => {
                const due = e.target.value || null;
                void save({ dueDate: due }, { dueDate: due });
              }}
            />
          </Field>
          <SubscribeToggle identifier={issue.identifier} />
          <p className="muted small">
            Created {new Date(issue.createdAt).toLocaleString()}
            <br />
            Updated {new Date(issue.updatedAt).toLocaleString()}
          </p>
          {archivedAt === null && (
            <button
              type="button"
              className="archive-link"
              onClick={async () => {
                if (await archiveIssue(tracker, notify, issue.identifier))
                  navigate(`/${ws}/team/${issue.team.key}/board`);
              }}
            >
              Archive
            </button>
          )}
          <DeleteIssue id={issue.id} identifier={issue.identifier} teamKey={issue.team.key} />
        </aside>
      </article>
    </AttachmentUrls.Provider>
  );
}

/**
 * Following the issue (`getIssueSubscription`, `subscribeIssue`, `unsubscribeIssue`): its changes reach
 * the inbox. The toggle flips at once and flips back, with a message, when the server refuses.
 */
function SubscribeToggle({ identifier }: { identifier: string }) {
  const { tracker, notify } = useApp();
  const key = `subscription:${identifier}`;
  const following = useData(key, () => tracker.issues.subscribed(identifier));
  if (following.data === undefined) return null;
  const on = following.data;
  const toggle = async () => {
    store.set(key, () => !on);
    try {
      const now = await tracker.issues.subscribe(identifier, !on);
      store.set(key, () => now);
    } catch (err) {
      store.set(key, () => on);
      notify(`${identifier}: ${on ? "not unsubscribed" : "not subscribed"}: ${describeError(err)}`, "error");
    }
  };
  return (
    <button
      type="button"
      className="subscribe-toggle"
      aria-pressed={on}
      title={on ? "Changes to this issue reach your inbox" : "Get this issue's changes in your inbox"}
      onClick={() => void toggle()}
    >
      {on ? "Unsubscribe" : "Subscribe"}
    </button>
  );
}

/** Urgent first, "no priority" last: the order people scan them in. */
const PRIORITY_ORDER = [1, 2, 3, 4, 0];

/**
 * Deleting for good (`DELETE /issues/{identifier}`: admins or the issue's creator) asks first, in the
 * page; a refusal is shown as the server says it and changes nothing.
 */
function DeleteIssue({ id, identifier, teamKey }: { id: string; identifier: string; teamKey: string }) {
  const { tracker, ws, notify } = useApp();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  // The question takes the focus, on its safe answer: Enter or Space right after asking deletes nothing.
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) cancel.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button type="button" className="danger-link" onClick={() => setAsking(true)}>
        Delete issue…
      </button>
    );
  return (
    <div role="alertdialog" aria-label={`Delete ${identifier}`} className="confirm-delete">
      <p>Delete {identifier} for good, with its comments and history? This cannot be undone.</p>
      <div className="row">
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await tracker.issues.delete(identifier);
              removeIssue(id);
              notify(`Deleted ${identifier}`);
              navigate(`/${ws}/team/${teamKey}/board`);
            } catch (err) {
              notify(`${identifier} not deleted: ${describeError(err)}`, "error");
              setAsking(false);
            } finally {
              setBusy(false);
            }
          }}
        >
          Delete
        </button>
        <button type="button" onClick={() => setAsking(false)} ref={cancel}>
          Cancel
        </button>
      </div>
    </div>
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
  identifier,
  text,
  onSave,
}: {
  identifier: string;
  text: string | null;
  onSave(text: string | null): Promise<boolean>;
}) {
  const { tracker } = useApp();
  const [draft, setDraft] = useState<string | null>(null);
  const drop = useFileDrop(
    tracker,
    identifier,
    (markdown, at) => setDraft((d) => insertAt(d ?? "", markdown, at)),
    () => store.invalidate([`page:${identifier}`]),
  );
  if (draft === null) {
    return (
      <section className="description" aria-label="Description">
        {text ? (
          <Markdown
            text={text}
            onToggleTask={(index, checked) => void onSave(toggleTask(text, index, checked))}
          />
        ) : (
          <p className="muted">No description.</p>
        )}
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
      <textarea
        id="description-input"
        rows={8}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        {...drop.handlers}
      />
      <UploadProgressList uploads={drop.uploads} />
      <ErrorNote error={drop.error} />
      <div className="row">
        <button type="submit" className="primary" disabled={drop.uploading > 0}>
          Save description
        </button>
        <button type="button" onClick={() => setDraft(null)}>
          Cancel
        </button>
      </div>
    </form>
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

/** The code host's pull requests that mention the issue (contract, "Code host"), newest first; none: hidden. */
function PullRequests({ data }: { data: PageData }) {
  if (data.pullRequests.length === 0) return null;
  return (
    <section aria-labelledby="pull-requests">
      <h2 id="pull-requests">Pull requests</h2>
      <ul className="plain">
        {data.pullRequests.map((pr) => (
          <li key={pr.id}>
            <a href={pr.url} rel="noopener noreferrer nofollow" target="_blank">
              {pr.repository}#{pr.number} {pr.title}
            </a>{" "}
            <span className="badge">{pr.state}</span>
            {pr.closes && <span className="muted"> · closes this issue when merged</span>}
          </li>
        ))}
      </ul>
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
  const drop = useFileDrop(
    tracker,
    identifier,
    (markdown, at) => setBody((b) => insertAt(b, markdown, at)),
    () => store.invalidate([`page:${identifier}`]),
  );
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
        <textarea
          id="new-comment"
          rows={3}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          required
          {...drop.handlers}
        />
        <UploadProgressList uploads={drop.uploads} />
        <ErrorNote error={drop.error} />
        <div className="row">
          <button type="submit" className="primary" disabled={busy || drop.uploading > 0 || !body.trim()}>
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
        {comment.updatedAt !== comment.createdAt && (
          <>
            {" "}
            <EditedMark identifier={identifier} commentId={comment.id} />
          </>
        )}
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
