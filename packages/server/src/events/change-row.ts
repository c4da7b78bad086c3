/** One row of `change_events` as the stream needs it, with the personal-space facts of its team. */
export interface ChangeRow {
  id: number;
  entity: string;
  action: string;
  entityId: string;
  identifier: string | null;
  teamKey: string | null;
  teamId: string | null;
  /** Epoch milliseconds of `created_at`. */
  at: number;
  /** The team's `personal` flag; null when the row has no team or the team is gone. */
  personal: boolean | null;
  ownerId: string | null;
  /** Written by an import (openapi.yaml, `ChangeEvent.imported`). */
  imported?: boolean;
}

/**
 * The select list and joins producing `ChangeRow` fields (alias `e` for change_events). The id goes out as
 * a number: identity values stay far below 2^53.
 */
export const CHANGE_ROW_SQL = `
  select e.id, e.entity, e.action, e.entity_id as "entityId", e.identifier, e.team_key as "teamKey",
         e.team_id as "teamId", (extract(epoch from e.created_at) * 1000)::float8 as at,
         t.personal, t.owner_id as "ownerId", e.imported
    from change_events e left join teams t on t.id = e.team_id`;

/** Rows arrive through `json_agg`, so ids are numbers already; this only guards the shape. */
export function toChangeRows(json: unknown): ChangeRow[] {
  const rows = (typeof json === "string" ? JSON.parse(json) : json) as ChangeRow[] | null;
  return (rows ?? []).map((r) => ({ ...r, id: Number(r.id), at: Number(r.at) }));
}

/** Changes after which a workspace's streams re-read who may see what (or may see anything). */
export function changesAccess(row: ChangeRow): boolean {
  return row.entity === "member" || row.entity === "team";
}

/** The SSE frame of a `changed` event; built once per row and written to every stream that may see it. */
export function changedFrame(row: ChangeRow): string {
  const data: Record<string, string> = { entity: row.entity, action: row.action, id: row.entityId };
  if (row.identifier != null) data.identifier = row.identifier;
  if (row.teamKey != null) data.teamKey = row.teamKey;
  data.at = new Date(row.at).toISOString();
  const frame: Record<string, string | boolean> = data;
  if (row.imported) frame.imported = true;
  return `event: changed\nid: ${row.id}\ndata: ${JSON.stringify(frame)}\n\n`;
}

/**
 * Rows handed to every stream of a workspace at once. Frames are built once; streams that see every row
 * (members and admins, usually) write one shared buffer, encoded once: one write per stream per batch,
 * however many rows it holds.
 */
export class ChangeBatch {
  readonly frames: string[];
  /**
   * No row is of a personal team or someone's notification: every member and admin sees all of it
   * (`seesChange` turns them away from nothing else), so their streams skip the row-by-row check.
   */
  readonly wholeToMembers: boolean;
  private whole: Buffer | undefined;

  constructor(readonly rows: readonly ChangeRow[]) {
    this.frames = rows.map(changedFrame);
    this.wholeToMembers = rows.every((row) => !(row.teamId && row.personal) && row.entity !== "notification");
  }

  get all(): Buffer {
    this.whole ??= Buffer.from(this.frames.join(""), "utf8");
    return this.whole;
  }
}
