import type { Schemas } from "@tracker/sdk";
import { useId, useState } from "react";
import { type Team, useApp } from "../app-context.js";
import { useSubmit } from "../components/use-submit.js";
import { ErrorNote } from "../components/widgets.js";
import { store, useData } from "../store.js";

/** The contract's `TeamKey`: 1-7 uppercase letters and digits, starting with a letter. */
export const TEAM_KEY = /^[A-Z][A-Z0-9]{0,6}$/;

/**
 * A key for a team's name, as a person would pick it: a name of several words gives its initials
 * ("Mobile Apps" MA), one word its first three letters ("Engineering" ENG). Accents are dropped; anything
 * but ASCII letters and digits is skipped, and the key starts with a letter (the contract's `TeamKey`).
 */
export function suggestTeamKey(name: string): string {
  const words = name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  const initials = words.map((w) => w[0]).join("");
  const raw = words.length > 1 && /^[A-Z]/.test(initials) ? initials : words.join("");
  const key = raw.replace(/^[0-9]+/, "");
  return words.length > 1 ? key.slice(0, 7) : key.slice(0, 3);
}

const ESTIMATES: Record<Schemas["EstimateScale"], string> = {
  none: "No estimates",
  linear: "Linear (1, 2, 3, 4, 5)",
  fibonacci: "Fibonacci (1, 2, 3, 5, 8)",
  exponential: "Exponential (1, 2, 4, 8, 16)",
  tshirt: "T-shirt sizes (XS to XL)",
};

/**
 * Making a team (contract, `createTeam`): its name, a key suggested from the name until the person types
 * their own, and cycles on or off. The creator joins the team; `onCreated` is told which it is.
 */
export function CreateTeamForm({
  onCreated,
  submitLabel = "Create team",
}: {
  onCreated(team: Team): void;
  submitLabel?: string;
}) {
  const { tracker } = useApp();
  const id = useId();
  const [name, setName] = useState("");
  const [key, setKey] = useState("");
  const [keyTouched, setKeyTouched] = useState(false);
  const [cycles, setCycles] = useState(false);
  const shownKey = keyTouched ? key : suggestTeamKey(name);
  const keyValid = TEAM_KEY.test(shownKey);
  const { submit, busy, error } = useSubmit(async () => {
    const team = await tracker.teams.create({ name: name.trim(), key: shownKey, cyclesEnabled: cycles });
    store.invalidate(["teams"]);
    setName("");
    setKey("");
    setKeyTouched(false);
    onCreated(team);
  });
  return (
    <form onSubmit={submit} className="stack settings-form" aria-label="Create a team">
      <label htmlFor={`${id}-name`}>Team name</label>
      <input
        id={`${id}-name`}
        value={name}
        maxLength={100}
        placeholder="Engineering"
        onChange={(e) => setName(e.target.value)}
        required
      />
      <label htmlFor={`${id}-key`}>Team key</label>
      <input
        id={`${id}-key`}
        className="key-input"
        value={shownKey}
        maxLength={7}
        placeholder="ENG"
        aria-describedby={`${id}-key-hint`}
        aria-invalid={shownKey !== "" && !keyValid}
        spellCheck={false}
        autoCapitalize="characters"
        onChange={(e) => {
          setKeyTouched(true);
          setKey(e.target.value.toUpperCase());
        }}
        required
      />
      <p id={`${id}-key-hint`} className="hint">
        Starts every issue's identifier ({shownKey || "ENG"}-1): 1 to 7 letters and digits, starting with a
        letter.
      </p>
      <label className="check">
        <input type="checkbox" checked={cycles} onChange={(e) => setCycles(e.target.checked)} /> Work in
        cycles (two-week sprints)
      </label>
      <button type="submit" className="primary" disabled={busy || !name.trim() || !keyValid}>
        {busy ? "Creating…" : submitLabel}
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

/**
 * Every team the person may see (contract, `listAllTeams`): join one (`joinTeam`) or leave it
 * (`removeTeamMember` with oneself, which the contract allows every member). `onJoined` follows a join.
 */
export function TeamDirectory({ onJoined }: { onJoined?(key: string): void }) {
  const { tracker, me } = useApp();
  const all = useData("teams-all", () => tracker.teams.listAll());
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const act = async (team: Schemas["TeamListing"], join: boolean) => {
    setBusy(team.key);
    setError(null);
    try {
      if (join) await tracker.teams.join(team.key);
      else await tracker.teams.removeMember(team.key, me?.id ?? "me");
      store.invalidate(["teams"]);
      if (join) onJoined?.(team.key);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="team-directory">
      <ErrorNote error={all.error ?? error} />
      {all.data?.length === 0 && (
        <p className="empty">
          {me?.role === "guest"
            ? "You are in no team yet: an admin adds guests to the teams they work with."
            : "There are no teams yet."}
        </p>
      )}
      {!!all.data?.length && (
        <ul className="plain settings-list" aria-label="Teams">
          {all.data.map((team) => (
            <li key={team.id} aria-label={team.name}>
              <span className="settings-item-main">
                <strong>{team.name}</strong> <span className="muted">{team.key}</span>{" "}
                {team.joined && <span className="badge">Joined</span>}
              </span>
              {team.joined ? (
                <button
                  type="button"
                  disabled={busy === team.key}
                  onClick={() => {
                    if (window.confirm(`Leave ${team.name}? Its issues stay as they are.`))
                      void act(team, false);
                  }}
                  aria-label={`Leave ${team.name}`}
                >
                  Leave
                </button>
              ) : (
                <button
                  type="button"
                  className="primary"
                  disabled={busy === team.key}
                  onClick={() => void act(team, true)}
                  aria-label={`Join ${team.name}`}
                >
                  Join
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Settings, Teams: a new team (not for guests, whom the server refuses), the directory, and for admins the
 * settings of the teams they are in (contract, `updateTeam`: name, cycles, estimates).
 */
export function TeamsSettings() {
  const { me, teams, notify } = useApp();
  const admin = me?.role === "admin";
  return (
    <>
      {me && me.role !== "guest" && (
        <section aria-labelledby="new-team-heading" className="settings-section">
          <h3 id="new-team-heading">New team</h3>
          <CreateTeamForm
            onCreated={(team) => notify(`${team.name} (${team.key}) is made, and you are in it.`)}
          />
        </section>
      )}
      <section aria-labelledby="directory-heading" className="settings-section">
        <h3 id="directory-heading">Team directory</h3>
        <TeamDirectory />
      </section>
      {admin && teams.some((t) => !t.personal) && (
        <section aria-labelledby="team-settings-heading" className="settings-section">
          <h3 id="team-settings-heading">Your teams' settings</h3>
          <ul className="plain settings-list">
            {teams
              .filter((t) => !t.personal)
              .map((team) => (
                <TeamSettingsItem key={team.id} team={team} />
              ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** The cycle lengths the contract's `TeamUpdate` allows (`cycleLengthWeeks`, 1 to 8). */
const CYCLE_WEEKS = [1, 2, 3, 4, 5, 6, 7, 8];

/**
 * One team's settings (contract, `updateTeam`): its name, its key (every identifier is re-prefixed, and the
 * old ones keep resolving), cycles and their length, estimates; and deleting it (`deleteTeam`).
 */
function TeamSettingsItem({ team }: { team: Team }) {
  const { tracker, notify } = useApp();
  const id = useId();
  const [name, setName] = useState(team.name);
  const [key, setKey] = useState(team.key);
  const [cycles, setCycles] = useState(team.cyclesEnabled);
  const [weeks, setWeeks] = useState(team.cycleLengthWeeks);
  const [scale, setScale] = useState(team.estimateScale);
  const [deleting, setDeleting] = useState(false);
  const keyValid = TEAM_KEY.test(key);
  const changed =
    name.trim() !== team.name ||
    key !== team.key ||
    cycles !== team.cyclesEnabled ||
    weeks !== team.cycleLengthWeeks ||
    scale !== team.estimateScale;
  const { submit, busy, error } = useSubmit(async () => {
    const body: Parameters<typeof tracker.teams.update>[1] = {};
    if (name.trim() !== team.name) body.name = name.trim();
    if (key !== team.key) body.key = key;
    if (cycles !== team.cyclesEnabled) body.cyclesEnabled = cycles;
    if (weeks !== team.cycleLengthWeeks) body.cycleLengthWeeks = weeks;
    if (scale !== team.estimateScale) body.estimateScale = scale;
    const saved = await tracker.teams.update(team.key, body);
    store.invalidate(["teams"]);
    notify(
      saved.key !== team.key
        ? `${saved.name} is saved: its issues are ${saved.key}-…, and ${team.key}-… identifiers still open them.`
        : `${saved.name} is saved.`,
    );
  });
  return (
    <li className="team-settings" aria-label={`${team.name} settings`}>
      <form onSubmit={submit} className="row" aria-label={`${team.name} (${team.key})`}>
        <span className="field">
          <label htmlFor={`${id}-name`}>Name of {team.key}</label>
          <input
            id={`${id}-name`}
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            required
          />
        </span>
        <span className="field">
          <label htmlFor={`${id}-key`}>Key of {team.key}</label>
          <input
            id={`${id}-key`}
            className="key-input"
            value={key}
            maxLength={7}
            spellCheck={false}
            autoCapitalize="characters"
            aria-invalid={!keyValid}
            aria-describedby={`${id}-key-hint`}
            onChange={(e) => setKey(e.target.value.toUpperCase())}
            required
          />
        </span>
        <span className="field">
          <label htmlFor={`${id}-scale`}>Estimates</label>
          <select
            id={`${id}-scale`}
            value={scale}
            onChange={(e) => setScale(e.target.value as Schemas["EstimateScale"])}
          >
            {Object.entries(ESTIMATES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </span>
        <label className="check">
          <input type="checkbox" checked={cycles} onChange={(e) => setCycles(e.target.checked)} /> Cycles
        </label>
        <span className="field">
          <label htmlFor={`${id}-weeks`}>Cycle length</label>
          <select id={`${id}-weeks`} value={weeks} onChange={(e) => setWeeks(Number(e.target.value))}>
            {CYCLE_WEEKS.map((n) => (
              <option key={n} value={n}>
                {n === 1 ? "1 week" : `${n} weeks`}
              </option>
            ))}
          </select>
        </span>
        <button type="submit" disabled={busy || !changed || !name.trim() || !keyValid}>
          Save {team.key}
        </button>
        <button
          type="button"
          className="danger-button"
          aria-expanded={deleting}
          onClick={() => setDeleting(!deleting)}
        >
          Delete {team.key}…
        </button>
      </form>
      <p id={`${id}-key-hint`} className="hint team-key-hint">
        A new key renames every issue ({team.key}-12 becomes {keyValid && key !== team.key ? key : "NEW"}-12,
        numbers kept); links and identifiers with {team.key} keep opening them.
      </p>
      <ErrorNote error={error} />
      {deleting && <DeleteTeam team={team} onCancel={() => setDeleting(false)} />}
    </li>
  );
}

/**
 * Deleting a team (contract, `deleteTeam`): it goes with its issues (counted with `countIssues`, archived
 * ones too), comments, cycles and documents; projects only this team has are detached, or deleted with
 * `deleteProjects=true`. Confirmed by typing the team's key.
 */
function DeleteTeam({ team, onCancel }: { team: Team; onCancel(): void }) {
  const { tracker, notify } = useApp();
  const id = useId();
  const counts = useData(`team-issue-count:${team.key}`, () =>
    tracker.issues.counts({ team: team.key, archived: "any", groupBy: "team" }),
  );
  const [typed, setTyped] = useState("");
  const [deleteProjects, setDeleteProjects] = useState(false);
  const issues = counts.data?.total;
  const { submit, busy, error } = useSubmit(async () => {
    const done = await tracker.teams.delete(team.key, { deleteProjects });
    store.invalidate(["teams", "teams-all"]);
    const projects = deleteProjects
      ? `${done.deletedProjects} project${done.deletedProjects === 1 ? "" : "s"} deleted`
      : `${done.detachedProjects} project${done.detachedProjects === 1 ? "" : "s"} kept without a team`;
    notify(`${team.name} (${team.key}) is deleted, with its issues; ${projects}.`);
  });
  return (
    <form onSubmit={submit} className="stack confirm-delete" aria-label={`Delete ${team.name}`}>
      <p id={`${id}-what`}>
        <strong>
          {team.name} goes with{" "}
          {issues === undefined ? "all its issues" : `its ${issues} issue${issues === 1 ? "" : "s"}`}
        </strong>
        , their comments, its cycles, workflow rules and documents. This cannot be undone; identifiers like{" "}
        {team.key}-1 stop opening anything.
      </p>
      <ErrorNote error={counts.error} />
      <fieldset className="stack">
        <legend>Its projects that no other team has</legend>
        <label className="check">
          <input
            type="radio"
            name={`${id}-projects`}
            checked={!deleteProjects}
            onChange={() => setDeleteProjects(false)}
          />{" "}
          Keep them, with no team
        </label>
        <label className="check">
          <input
            type="radio"
            name={`${id}-projects`}
            checked={deleteProjects}
            onChange={() => setDeleteProjects(true)}
          />{" "}
          Delete them too
        </label>
        <p className="hint">Projects shared with other teams stay theirs either way.</p>
      </fieldset>
      <label htmlFor={`${id}-confirm`}>Type {team.key} to confirm</label>
      <input
        id={`${id}-confirm`}
        className="key-input"
        value={typed}
        autoComplete="off"
        spellCheck={false}
        aria-describedby={`${id}-what`}
        onChange={(e) => setTyped(e.target.value)}
      />
      <p className="settings-item-actions">
        <button
          type="submit"
          className="danger-button"
          disabled={busy || typed.trim().toUpperCase() !== team.key}
        >
          Delete {team.key} and its issues
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </p>
      <ErrorNote error={error} />
    </form>
  );
}
