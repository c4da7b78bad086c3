import { CONFIRMS_CALLER, handle, inWorkspace, OK } from "../../http/handler.js";
import { createIssue } from "./issue-create.service.js";
import { createIssueLink } from "./issue-link.service.js";
import { moveIssues } from "./issue-move.service.js";
import { getIssuePageData } from "./issue-page-data.service.js";
import { getIssueDetail } from "./issue-read.service.js";
import { updateIssue } from "./issue-update.service.js";
import * as relations from "./relation.service.js";

export const issueHandlers = [
  handle("createIssue", async (s, { body }) => ({
    status: 201,
    body: { issue: await createIssue(inWorkspace(s), body) },
  })),

  handle(
    "getIssue",
    async (s, { params }) => ({
      status: 200,
      body: { issue: await getIssueDetail(inWorkspace(s), params.identifier) },
    }),
    CONFIRMS_CALLER,
  ),

  handle("updateIssue", async (s, { params, body }) => ({
    status: 200,
    body: { issue: await updateIssue(inWorkspace(s), params.identifier, body) },
  })),

  handle(
    "getIssuePageData",
    async (s, { params }) => ({
      status: 200,
      body: await getIssuePageData(inWorkspace(s), params.identifier),
    }),
    CONFIRMS_CALLER,
  ),

  handle("createIssueLink", async (s, { params, body }) => ({
    status: 201,
    body: { link: await createIssueLink(inWorkspace(s), params.identifier, body) },
  })),

  handle("listIssueRelations", async (s, { params }) => ({
    status: 200,
    body: { relations: await relations.listRelations(inWorkspace(s), params.identifier) },
  })),

  handle("createIssueRelation", async (s, { params, body }) => ({
    status: 201,
    body: {
      relation: await relations.createRelation(inWorkspace(s), params.identifier, body.issue, body.type),
    },
  })),

  handle("deleteIssueRelation", async (s, { params }) => {
    await relations.deleteRelation(inWorkspace(s), params.identifier, params.relationId);
    return { status: 200, body: OK };
  }),

  handle("moveIssues", async (s, { body }) => ({
    status: 200,
    body: { moved: await moveIssues(inWorkspace(s), body.identifiers, body.team) },
  })),
];
