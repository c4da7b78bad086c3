import type { Schemas } from "@tracker/sdk";
import { useId, useState } from "react";
import { useApp } from "../app-context.js";
import { CopyField } from "../components/copy-field.js";
import { useSubmit } from "../components/use-submit.js";
import { Avatar, ErrorNote } from "../components/widgets.js";
import { describeError as describeErrorText } from "../session.js";
import { store, useData } from "../store.js";

type Role = Schemas["MemberRole"];
const ROLES: Record<Role, string> = {
  admin: "Admin",
  member: "Member",
  guest: "Guest",
};
const ROLE_HINT =
  "Admins manage people, teams and webhooks; members work in every team; guests see only their teams.";

/**
 * Inviting someone (contract, `createInvite`): email and role; the answer's link, shown once, is for the
 * admin to pass on (the server sends no email), with a copy button.
 */
export function InviteForm() {
  const { tracker } = useApp();
  const id = useId();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [made, setMade] = useState<Schemas["InviteCreated"] | null>(null);
  const { submit, busy, error } = useSubmit(async () => {
    const invite = await tracker.invites.create({ email: email.trim(), role });
    setMade(invite);
    setEmail("");
    store.invalidate(["invites"]);
  });
  return (
    <div className="stack">
      <form onSubmit={submit} className="row settings-form" aria-label="Invite someone">
        <span className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            placeholder="grace@example.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
          />
        </span>
        <span className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select
            id={`${id}-role`}
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            aria-describedby={`${id}-role-hint`}
          >
            {Object.entries(ROLES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </span>
        <button type="submit" className="primary" disabled={busy || !email.trim()}>
          {busy ? "Inviting…" : "Invite"}
        </button>
      </form>
      <p id={`${id}-role-hint`} className="hint">
        {ROLE_HINT}
      </p>
      <ErrorNote error={error} />
      {made && (
        <CopyField
          key={made.id}
          label={`Invite link for ${made.email}`}
          value={made.url}
          hint="Shown this once, and no email is sent: pass it on yourself. It works once, for 7 days."
        />
      )}
    </div>
  );
}

/**
 * Settings, People (admins): the members with their roles (`updateMember`: the server refuses demoting the
 * last admin, and its message is shown), removing one (`removeMember`), inviting, and the pending invites
 * with revoke (`deleteInvite`).
 */
export function PeopleSettings() {
  const { tracker, me } = useApp();
  const users = useData("users", () => tracker.users.list());
  const invites = useData(me?.role === "admin" ? "invites" : null, () => tracker.invites.list());
  if (me && me.role !== "admin") {
    return <p className="empty">Only workspace admins manage people. Ask one to invite someone.</p>;
  }
  return (
    <>
      <section aria-labelledby="invite-heading" className="settings-section">
        <h3 id="invite-heading">Invite people</h3>
        <InviteForm />
      </section>
      <section aria-labelledby="members-heading" className="settings-section">
        <h3 id="members-heading">Members</h3>
        <ErrorNote error={users.error} />
        {users.data && (
          <ul className="plain settings-list" aria-label="Members">
            {users.data.map((user) => (
              <MemberItem key={user.id} user={user} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="invites-heading" className="settings-section">
        <h3 id="invites-heading">Pending invites</h3>
        <ErrorNote error={invites.error} />
        {invites.data?.length === 0 && <p className="muted">No invites waiting.</p>}
        {!!invites.data?.length && (
          <ul className="plain settings-list" aria-label="Pending invites">
            {invites.data.map((invite) => (
              <InviteItem key={invite.id} invite={invite} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function MemberItem({ user }: { user: Schemas["User"] }) {
  const { tracker, notify } = useApp();
  const id = useId();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      store.invalidate(["users"]);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const changeRole = (role: Role) =>
    run(async () => {
      const saved = await tracker.members.update(user.id, { role });
      notify(`${saved.name} is now ${ROLES[saved.role].toLowerCase()}.`);
    });
  const remove = () => {
    if (!window.confirm(`Remove ${user.name} from the workspace? Their API keys stop reaching it at once.`))
      return;
    void run(() => tracker.members.remove(user.id));
  };
  return (
    <li className="member" aria-label={user.name}>
      <span className="settings-item-main">
        <Avatar name={user.name} size={22} /> <strong>{user.name}</strong>
        {user.isMe && <span className="muted"> (you)</span>} <span className="muted">{user.email}</span>
      </span>
      <span className="settings-item-actions">
        <label htmlFor={`${id}-role`} className="sr-only">
          Role of {user.name}
        </label>
        <select
          id={`${id}-role`}
          value={user.role}
          disabled={busy}
          onChange={(e) => void changeRole(e.target.value as Role)}
        >
          {Object.entries(ROLES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        {!user.isMe && (
          <button type="button" disabled={busy} onClick={remove} aria-label={`Remove ${user.name}`}>
            Remove
          </button>
        )}
      </span>
      <ErrorNote error={error} />
    </li>
  );
}

function InviteItem({ invite }: { invite: Schemas["Invite"] }) {
  const { tracker, notify } = useApp();
  const revoke = () => {
    if (!window.confirm(`Revoke the invite to ${invite.email}? Its link stops working.`)) return;
    tracker.invites.delete(invite.id).then(
      () => store.invalidate(["invites"]),
      (e) => notify(describeErrorText(e), "error"),
    );
  };
  return (
    <li aria-label={invite.email}>
      <span className="settings-item-main">
        <strong>{invite.email}</strong> <span className="badge">{ROLES[invite.role]}</span>{" "}
        <span className="muted">expires {new Date(invite.expiresAt).toLocaleDateString()}</span>
      </span>
      <button type="button" onClick={revoke} aria-label={`Revoke the invite to ${invite.email}`}>
        Revoke
      </button>
    </li>
  );
}
