import { CONFIRMS_CALLER, handle, inWorkspace, OK } from "../../http/handler.js";
import { getProject, listProjectMembers, projectPageData, queryProjects } from "./project.query.js";
import * as projects from "./project.service.js";
import { moveProject } from "./project-move.service.js";

export const projectHandlers = [
  handle(
    "listProjects",
    async (s, { query }) => ({
      status: 200,
      body: await queryProjects(inWorkspace(s), { ...query, limit: query.limit ?? 50 }),
    }),
    CONFIRMS_CALLER,
  ),

  handle("getProject", async (s, { params }) => ({
    status: 200,
    body: { project: await getProject(inWorkspace(s), params.id) },
  })),

  handle("createProject", async (s, { body }) => ({
    status: 201,
    body: { project: await projects.createProject(inWorkspace(s), body) },
  })),

  handle("updateProject", async (s, { params, body }) => ({
    status: 200,
    body: { project: await projects.updateProject(inWorkspace(s), params.id, body) },
  })),

  handle("moveProject", async (s, { params, body }) => ({
    status: 200,
    body: { moved: await moveProject(inWorkspace(s), params.id, body) },
  })),

  handle("listProjectMembers", async (s, { params }) => ({
    status: 200,
    body: { members: await listProjectMembers(inWorkspace(s), params.id) },
  })),

  handle("addProjectMember", async (s, { params, body }) => {
    await projects.addProjectMember(inWorkspace(s), params.id, body.user);
    return { status: 200, body: OK };
  }),

  handle("removeProjectMember", async (s, { params, query }) => {
    await projects.removeProjectMember(inWorkspace(s), params.id, query.user);
    return { status: 200, body: OK };
  }),

  handle("getProjectPageData", async (s, { params }) => ({
    status: 200,
    body: await projectPageData(inWorkspace(s), params.id),
  })),
];
