import type { Schemas } from "@tracker/sdk";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useApp } from "../app-context.js";
import { ErrorNote } from "../components/widgets.js";
import { Link, useTitle } from "../router.js";
import { describeError } from "../session.js";
import { store, useData } from "../store.js";
import { AccessSettings } from "./settings-access.js";
import { AccountSettings } from "./settings-account.js";
import { IntegrationsSettings } from "./settings-integrations.js";
import { LabelsSettings } from "./settings-labels.js";
import { PeopleSettings } from "./settings-people.js";
import { TeamsSettings } from "./settings-teams.js";
import { WorkflowSettings } from "./settings-workflow.js";
import { WorkspaceSettings } from "./settings-workspace.js";

type Webhook = Schemas["Webhook"];

/** The settings' screens, in the sub-navigation's order; `admin` ones are not offered to others. */
const TABS = [
  { tab: "workspace", label: "Workspace", admin: false },
  { tab: "teams", label: "Teams", admin: false },
  // Not offered to guests, whom the server refuses: labels and a team's workflow are members' and admins'.
  { tab: "labels", label: "Labels", admin: false, members: true },
  { tab: "workflow", label: "Workflow", admin: false, members: true },
  { tab: "people", label: "People", admin: true },
  { tab: "account", label: "My account", admin: false },
  { tab: "access", label: "Access", admin: false },
  { tab: "integrations", label: "Integrations", admin: true },
  { tab: "webhooks", label: "Webhooks", admin: true },
] as const;
export type SettingsTab = (typeof TABS)[number]["tab"];

/** Old addresses of tabs, still opened: API keys became part of Access. */
const RENAMED: Record<string, SettingsTab> = { "api-keys": "access" };

export function isSettingsTab(tab: string | undefined): tab is SettingsTab {
  return TABS.some((t) => t.tab === tab) || (tab !== undefined && Object.hasOwn(RENAMED, tab));
}

/**
 * Settings: a sub-navigation and the screen chosen in it (`/<ws>/settings/<tab>`). The screens of what only
 * admins may do (People, Webhooks) are offered to admins only; the server refuses the rest of the people
 * anyway, and a screen opened by its address shows what the server says.
 */
export function SettingsPage({ tab: asked }: { tab: SettingsTab }) {
  const tab = RENAMED[asked] ?? asked;
  const { ws, me } = useApp();
  const current = TABS.find((t) => t.tab === tab)!;
  useTitle(`${current.label} settings`);
  const heading = useRef<HTMLHeadingElement>(null);
  const lastTab = useRef(tab);
  // A screen chosen in the sub-navigation takes the focus at its heading, as a new page would.
  useEffect(() => {
    if (lastTab.current === tab) return;
    lastTab.current = tab;
    heading.current?.focus();
  });
  const shown = TABS.filter(
    (t) => (!t.admin || me?.role === "admin") && (!("members" in t) || (me && me.role !== "guest")),
  );
  return (
    <div className="page settings-page">
      <h1>Settings</h1>
      <div className="settings-layout">
        <nav className="settings-nav" aria-label="Settings">
          <ul>
            {shown.map((t) => (
              <li key={t.tab}>
                <Link to={`/${ws}/settings/${t.tab}`} aria-current={t.tab === tab ? "page" : undefined}>
                  {t.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <section className="settings-content" aria-labelledby="settings-heading">
          <h2 id="settings-heading" ref={heading} tabIndex={-1}>
            {current.label}
          </h2>
          {tab === "workspace" && <WorkspaceSettings />}
          {tab === "teams" && <TeamsSettings />}
          {tab === "labels" && <LabelsSettings />}
          {tab === "workflow" && <WorkflowSettings />}
          {tab === "people" && <PeopleSettings />}
          {tab === "account" && <AccountSettings />}
          {tab === "access" && <AccessSettings />}
          {tab === "integrations" && <IntegrationsSettings />}
          {tab === "webhooks" && <WebhooksSettings />}
        </section>
      </div>
    </div>
  );
}

/**
 * The workspace's outbound webhooks an admin keeps (contract, "Webhooks"): register an endpoint (its
 * signing secret shown once), read each one's deliveries and why they failed, send one again, remove an
 * endpoint. Others are told, by the server, that this is the admins'.
 */
function WebhooksSettings() {
  const { tracker } = useApp();
  const hooks = useData("webhooks", () => tracker.webhooks.list());
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState("*");
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const list = events
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean);
      const made = await tracker.webhooks.create({ url: url.trim(), events: list.length ? list : ["*"] });
      setCreated({ url: made.webhook.url, secret: made.secret });
      setUrl("");
      store.invalidate(["webhooks"]);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <p className="muted">
        Tracker sends the workspace's changes to these addresses as they happen, signed as Standard Webhooks
        say (verify them with the SDK's <code>verifyWebhook</code>), and retries for a day.
      </p>
      <ErrorNote error={hooks.error} />
      {hooks.data && (
        <>
          <form onSubmit={add} className="stack" aria-label="Add a webhook">
            <label htmlFor="webhook-url">Endpoint URL</label>
            <input
              id="webhook-url"
              type="url"
              placeholder="https://ci.example.com/tracker"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              required
            />
            <label htmlFor="webhook-events">Events</label>
            <input
              id="webhook-events"
              value={events}
              onChange={(e) => setEvents(e.target.value)}
              aria-describedby="webhook-events-hint"
            />
            <p id="webhook-events-hint" className="hint">
              Comma-separated: <code>*</code> for every change, an entity (<code>issue</code>) or one action (
              <code>issue.created</code>).
            </p>
            <button type="submit" className="primary" disabled={busy || !url.trim()}>
              Add webhook
            </button>
            <ErrorNote error={error} />
          </form>
          {created && (
            <p role="status" className="notice-secret">
              Signing secret of {created.url}, shown this once: <code>{created.secret}</code>
            </p>
          )}
          {hooks.data.length === 0 ? (
            <p className="empty">No webhooks yet.</p>
          ) : (
            <ul className="plain" aria-label="Webhooks">
              {hooks.data.map((hook) => (
                <WebhookItem key={hook.id} hook={hook} />
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

function WebhookItem({ hook }: { hook: Webhook }) {
  const { tracker, notify } = useApp();
  const [open, setOpen] = useState(false);
  const remove = () => {
    if (!window.confirm(`Delete the webhook to ${hook.url}, with its delivery log?`)) return;
    tracker.webhooks.delete(hook.id).then(
      () => store.invalidate(["webhooks"]),
      (e) => notify(describeError(e), "error"),
    );
  };
  return (
    <li className="webhook" aria-label={hook.url}>
      <p>
        <code>{hook.url}</code> <span className="muted">{hook.events.join(", ")}</span>{" "}
        {hook.enabled ? (
          <span className="badge">On</span>
        ) : (
          <span className="badge">Off{hook.disabledReason ? `: ${hook.disabledReason}` : ""}</span>
        )}
      </p>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        Deliveries
      </button>{" "}
      <button type="button" onClick={remove}>
        Delete
      </button>
      {open && <Deliveries hook={hook} />}
    </li>
  );
}

function Deliveries({ hook }: { hook: Webhook }) {
  const { tracker, notify } = useApp();
  const key = `webhook-deliveries:${hook.id}`;
  const deliveries = useData(key, () => tracker.webhooks.deliveries(hook.id));
  const again = (id: string) =>
    tracker.webhooks.redeliver(hook.id, id).then(
      () => store.invalidate([key]),
      (e) => notify(describeError(e), "error"),
    );
  return (
    <div className="deliveries">
      <ErrorNote error={deliveries.error} />
      {deliveries.data?.length === 0 && <p className="muted">Nothing sent yet.</p>}
      {!!deliveries.data?.length && (
        <table aria-label={`Deliveries to ${hook.url}`}>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Answer</th>
              <th scope="col">Queued</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.map((d) => (
              <tr key={d.id}>
                <td>{d.eventType}</td>
                <td>{d.status}</td>
                <td>{d.attempts}</td>
                <td>{d.responseStatus ?? d.error ?? "—"}</td>
                <td>{new Date(d.createdAt).toLocaleString()}</td>
                <td>
                  <button type="button" onClick={() => void again(d.id)} disabled={!hook.enabled}>
                    Send again
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
