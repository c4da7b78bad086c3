import { handle, inWorkspace, OK } from "../../http/handler.js";
import {
  listJoinedTeams,
  listTeamMembers,
  listVisibleTeams,
  listWorkflows,
  readVisibleTeam,
} from "./team.query.js";
import * as teams from "./team.service.js";

export const teamHandlers = [
  handle("listTeams", async (s) => ({
    status: 200,
    body: { teams: await listJoinedTeams(inWorkspace(s)) },
  })),

  handle("createTeam", async (s, { body }) => ({
    status: 201,
    body: { team: await teams.createTeam(inWorkspace(s), body) },
  })),

  handle("listAllTeams", async (s) => ({
    status: 200,
    body: { teams: await listVisibleTeams(inWorkspace(s)) },
  })),

  handle("getTeam", async (s, { params }) => ({
    status: 200,
    body: { team: await readVisibleTeam(inWorkspace(s), params.key) },
  })),

  // The service's API answers `{ok}`; the team as it is now rides beside it (the contract's updateTeam).
  handle("updateTeam", async (s, { params, body }) => ({
    status: 200,
    body: { ok: true as const, team: await teams.updateTeam(inWorkspace(s), params.key, body) },
  })),

  handle("deleteTeam", async (s, { params, query }) => ({
    status: 200,
    body: await teams.deleteTeam(inWorkspace(s), params.key, query.deleteProjects === true),
  })),

  handle("joinTeam", async (s, { params }) => {
    await teams.joinTeam(inWorkspace(s), params.key);
    return { status: 200, body: OK };
  }),

  handle("listTeamMembers", async (s, { params }) => ({
    status: 200,
    body: await listTeamMembers(inWorkspace(s), params.key),
  })),

  handle("addTeamMember", async (s, { params, body }) => {
    await teams.addTeamMember(inWorkspace(s), params.key, body.userId);
    return { status: 200, body: OK };
  }),

  handle("removeTeamMember", async (s, { params }) => {
    await teams.removeTeamMember(inWorkspace(s), params.key, params.userId);
    return { status: 200, body: OK };
  }),

  handle("listWorkflows", async (s, { params }) => ({
    status: 200,
    body: await listWorkflows(inWorkspace(s), params.key),
  })),

  handle("upsertWorkflow", async (s, { params, body }) => {
    const { created, rule } = await teams.upsertWorkflow(inWorkspace(s), params.key, body);
    return created ? { status: 201, body: rule } : { status: 200, body: rule };
  }),

  handle("deleteWorkflow", async (s, { params }) => {
    await teams.deleteWorkflow(inWorkspace(s), params.key, params.ruleId);
    return { status: 200, body: OK };
  }),
];
