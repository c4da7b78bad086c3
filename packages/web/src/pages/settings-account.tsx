import type { Schemas } from "@tracker/sdk";
import { useId, useState } from "react";
import { useApp } from "../app-context.js";
import { useSubmit } from "../components/use-submit.js";
import { ErrorNote } from "../components/widgets.js";
import { store, useData } from "../store.js";

type EmailChoice = Schemas["NotificationEmail"];
const EMAIL_CHOICES: [EmailChoice, string, string][] = [
  ["none", "Inbox only", "Notifications wait in your inbox."],
  ["instant", "Also e-mail each one at once", "An e-mail for each notification, as it happens."],
  ["daily", "A daily e-mail", "One e-mail a day with what is still unread."],
];

/**
 * Settings, My account: the person's own name (contract, `updateMe`), password (`changePassword`: the
 * current one, then the new one twice; this browser stays signed in, the others are signed out) and how
 * they are told of notifications (`putNotificationSettings`). Everything here is the person's, in every
 * workspace of theirs.
 */
export function AccountSettings() {
  return (
    <>
      <NameForm />
      <PasswordForm />
      <NotificationsForm />
    </>
  );
}

function NameForm() {
  const { tracker, me } = useApp();
  const id = useId();
  const [name, setName] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const shown = name ?? me?.name ?? "";
  const { submit, busy, error } = useSubmit(async () => {
    await tracker.account.update({ name: shown.trim() });
    setName(null);
    setSaved(true);
    store.invalidate(["users"]);
  });
  return (
    <section aria-labelledby={`${id}-heading`} className="settings-section">
      <h3 id={`${id}-heading`}>Your name</h3>
      <form onSubmit={submit} className="stack settings-form" aria-label="Your name">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={shown}
          maxLength={100}
          autoComplete="name"
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            setName(e.target.value);
            setSaved(false);
          }}
          required
        />
        <p id={`${id}-hint`} className="hint">
          As every workspace of yours shows it. Signed in as {me?.email ?? "…"}.
        </p>
        <button
          type="submit"
          className="primary"
          disabled={busy || !shown.trim() || shown.trim() === me?.name}
        >
          Save name
        </button>
        <p role="status" className="hint">
          {saved ? "Name saved." : ""}
        </p>
        <ErrorNote error={error} />
      </form>
    </section>
  );
}

function PasswordForm() {
  const { tracker } = useApp();
  const id = useId();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const mismatch = again !== "" && next !== again;
  const { submit, busy, error } = useSubmit(async () => {
    const ended = await tracker.account.changePassword({ currentPassword: current, newPassword: next });
    setCurrent("");
    setNext("");
    setAgain("");
    setDone(
      ended
        ? `Password changed. ${ended} other session${ended === 1 ? " was" : "s were"} signed out.`
        : "Password changed.",
    );
    store.invalidate(["sessions"]);
  });
  return (
    <section aria-labelledby={`${id}-heading`} className="settings-section">
      <h3 id={`${id}-heading`}>Password</h3>
      <form
        onSubmit={(e) => {
          setDone(null);
          return submit(e);
        }}
        className="stack settings-form"
        aria-label="Change your password"
      >
        <label htmlFor={`${id}-current`}>Current password</label>
        <input
          id={`${id}-current`}
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          required
        />
        <label htmlFor={`${id}-new`}>New password</label>
        <input
          id={`${id}-new`}
          type="password"
          autoComplete="new-password"
          minLength={10}
          maxLength={256}
          aria-describedby={`${id}-rule`}
          value={next}
          onChange={(e) => setNext(e.target.value)}
          required
        />
        <p id={`${id}-rule`} className="hint">
          10 to 256 characters. Your other browsers are signed out; this one stays signed in.
        </p>
        <label htmlFor={`${id}-again`}>New password again</label>
        <input
          id={`${id}-again`}
          type="password"
          autoComplete="new-password"
          aria-invalid={mismatch || undefined}
          aria-describedby={mismatch ? `${id}-mismatch` : undefined}
          value={again}
          onChange={(e) => setAgain(e.target.value)}
          required
        />
        {mismatch && (
          <p id={`${id}-mismatch`} className="error">
            The two new passwords differ.
          </p>
        )}
        <button
          type="submit"
          className="primary"
          disabled={busy || !current || next.length < 10 || next !== again}
        >
          {busy ? "Changing…" : "Change password"}
        </button>
        <p role="status" className="hint">
          {done ?? ""}
        </p>
        <ErrorNote error={error} />
      </form>
    </section>
  );
}

function NotificationsForm() {
  const { tracker } = useApp();
  const id = useId();
  const settings = useData("notification-settings", () => tracker.account.notificationSettings());
  const [choice, setChoice] = useState<EmailChoice | null>(null);
  const [saved, setSaved] = useState(false);
  const current = settings.data?.email;
  const shown = choice ?? current ?? "none";
  const { submit, busy, error } = useSubmit(async () => {
    await tracker.account.setNotificationSettings({ email: shown });
    setChoice(null);
    setSaved(true);
    store.invalidate(["notification-settings"]);
  });
  return (
    <section aria-labelledby={`${id}-heading`} className="settings-section">
      <h3 id={`${id}-heading`}>Notifications</h3>
      <ErrorNote error={settings.error} />
      {settings.data && (
        <form onSubmit={submit} className="stack settings-form" aria-labelledby={`${id}-heading`}>
          <fieldset className="notify-choices">
            <legend>How you are told</legend>
            {EMAIL_CHOICES.map(([value, label, hint]) => (
              <div key={value} className="choice">
                <input
                  type="radio"
                  id={`${id}-${value}`}
                  name={`${id}-email`}
                  value={value}
                  checked={shown === value}
                  disabled={value !== "none" && !settings.data!.emailAvailable}
                  aria-describedby={`${id}-${value}-hint`}
                  onChange={() => {
                    setChoice(value);
                    setSaved(false);
                  }}
                />
                <label htmlFor={`${id}-${value}`}>{label}</label>
                <span id={`${id}-${value}-hint`} className="hint">
                  {value === "daily" ? `${hint} Sent at ${settings.data!.digestHour}:00 UTC.` : hint}
                </span>
              </div>
            ))}
          </fieldset>
          {!settings.data.emailAvailable && (
            <p className="hint">This server has no mail server set up, so it sends no e-mail.</p>
          )}
          <button type="submit" className="primary" disabled={busy || shown === current}>
            Save notifications
          </button>
          <p role="status" className="hint">
            {saved ? "Notification settings saved." : ""}
          </p>
          <ErrorNote error={error} />
        </form>
      )}
    </section>
  );
}
