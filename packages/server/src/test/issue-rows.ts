import { randomUUID } from "node:crypto";
import type { components } from "@tracker/sdk/schema";
import type { TestServer } from "./harness.js";

type StateType = components["schemas"]["StateType"];

/**
 * An issue written straight to the database for tests of what reads issues (labels, documents, status
 * updates): numbered from its team's counter, in the team's first state of `stateType`, carrying `labels`
 * (by name, case-insensitive). Returns its id.
 */
export async function insertIssue(
  srv: Pick<TestServer, "query">,
  workspaceId: string,
  teamId: string,
  title: string,
  o: {
    stateType?: StateType;
    description?: string | null;
    projectId?: string;
    cycleId?: string;
    assigneeId?: string;
    /** When a completed issue was completed; default now. */
    completedAt?: string;
    labels?: string[];
    /** Labels not in the workspace yet are created (else they are skipped). */
    createLabels?: boolean;
    /** How long ago it was created and last changed, as an SQL interval; default none. */
    age?: string;
  } = {},
): Promise<string> {
  const [{ number }] = (await srv.query(
    "update teams set issue_counter = issue_counter + 1 where id = $1 returning issue_counter as number",
    [teamId],
  )) as [{ number: number }];
  const id = randomUUID();
  await srv.query(
    `insert into issues (id, workspace_id, team_id, number, title, description, priority, state_id, state_type,
                         project_id, cycle_id, assignee_id, created_at, updated_at, completed_at)
     select $1, $2, $3, $4, $5, $6, 0, s.id, s.type, $7, $8, $9, now() - $12::interval, now() - $12::interval,
            case when s.type = 'completed' then coalesce($10::timestamptz, now()) end
       from workflow_states s where s.team_id = $3 and s.type = $11 order by s.position limit 1`,
    [
      id,
      workspaceId,
      teamId,
      number,
      title,
      o.description ?? null,
      o.projectId ?? null,
      o.cycleId ?? null,
      o.assigneeId ?? null,
      o.completedAt ?? null,
      o.stateType ?? "unstarted",
      o.age ?? "0 seconds",
    ],
  );
  for (const name of o.labels ?? []) {
    if (o.createLabels) {
      await srv.query(
        `insert into labels (id, workspace_id, name, color, created_at, updated_at)
         values (gen_random_uuid(), $1, $2, '#5e6ad2', now(), now()) on conflict do nothing`,
        [workspaceId, name],
      );
    }
    await srv.query(
      `insert into issue_labels (issue_id, label_id)
       select $1, id from labels where workspace_id = $2 and lower(name) = lower($3)`,
      [id, workspaceId, name],
    );
  }
  return id;
}
