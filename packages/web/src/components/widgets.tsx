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

/** A workflow state's icon, in the state's own colour when it is known. */
export function StateIcon({ type, color }: { type: Schemas["StateType"]; color?: string | undefined }) {
  return (
    <span className={`state-icon state-${type}`} aria-hidden="true" style={color ? { color } : undefined}>
      {STATE_ICONS[type]}
    </span>
  );
}

/** A person's initials in a circle whose colour comes from their name, so a face is found at a glance. */
export function Avatar({ name, size = 18 }: { name: string | null | undefined; size?: number }) {
  if (!name) {
    return <span className="avatar avatar-none" aria-hidden="true" style={{ width: size, height: size }} />;
  }
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");
  let hash = 0;
  for (const c of name) hash = (hash * 31 + c.charCodeAt(0)) | 0;
  return (
    <span
      className="avatar"
      aria-hidden="true"
      style={{
        width: size,
        height: size,
        fontSize: size * 0.45,
        background: `hsl(${Math.abs(hash) % 360} 40% 30%)`,
      }}
    >
      {initials}
    </span>
  );
}

/** A label's colour dot. */
export function LabelDot({ color }: { color: string | undefined }) {
  return <span className="label-dot" aria-hidden="true" style={{ background: color ?? "var(--muted)" }} />;
}

const PRIORITY_BARS = ["–", "!!!", "▮▮▮", "▮▮▯", "▮▯▯"];

/** Priority as Linear draws it: urgent an exclamation, then three, two or one bar, none a dash. */
export function PriorityIcon({ priority }: { priority: number }) {
  return (
    <span className={`priority-icon priority-${priority}`} aria-hidden="true">
      {PRIORITY_BARS[priority] ?? "–"}
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
