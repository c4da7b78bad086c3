import { priorityName, type Schemas } from "@tracker/sdk";
import { useApp } from "../app-context.js";
import { describeError } from "../session.js";

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {describeError(error)}
    </p>
  );
}

/** A page whose data has not arrived: its title, and either "Loading…" or why it cannot be shown. */
export function Pending({ title, error }: { title: string; error: unknown }) {
  return (
    <div className="page">
      <h1>{title}</h1>
      <ErrorNote error={error} />
      {!error && <p className="muted">Loading…</p>}
    </div>
  );
}

export function priorityLabel(priority: number): string {
  return priorityName(priority) || "No priority";
}

const STATE_ICONS: Record<Schemas["StateType"], string> = {
  backlog: "◌",
  unstarted: "○",
  started: "◐",
  completed: "●",
  canceled: "⊘",
};

export function StateIcon({ type }: { type: Schemas["StateType"] }) {
  return (
    <span className={`state-icon state-${type}`} aria-hidden="true">
      {STATE_ICONS[type]}
    </span>
  );
}

export function ProgressBar({ progress, label }: { progress: Schemas["Progress"]; label: string }) {
  return (
    <span className="progress">
      <progress max={100} value={progress.percent} aria-label={label} />
      <span>
        {progress.percent}% · {progress.done}/{progress.total}
      </span>
    </span>
  );
}

const HEALTH: Record<Schemas["Health"], string> = {
  on_track: "On track",
  at_risk: "At risk",
  off_track: "Off track",
};

export function HealthBadge({ health }: { health: Schemas["Health"] }) {
  return <span className={`badge health-${health}`}>{HEALTH[health]}</span>;
}

/** A choice of one of the workspace's teams, by key. */
export function TeamSelect({ value, onChange }: { value: string; onChange(key: string): void }) {
  const { teams } = useApp();
  return (
    <label>
      Team
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {teams.map((t) => (
          <option key={t.id} value={t.key}>
            {t.name} ({t.key})
          </option>
        ))}
      </select>
    </label>
  );
}
