import { handle, inWorkspace, OK } from "../../http/handler.js";
import * as issues from "./issue.service.js";
import { moveIssues } from "./issue-move.service.js";
import * as relations from "./relation.service.js";

export const issueHandlers = [
  handle("createIssue", async (s, { body }) => ({
    status: 201,
    body: { issue: await issues.createIssue(inWorkspace(s), body) },
  })),

  handle("getIssue", async (s, { params }) => ({
    status: 200,
    body: { issue: await issues.getIssueDetail(inWorkspace(s), params.identifier) },
  })),

  handle("updateIssue", async (s, { params, body }) => ({
    status: 200,
    body: { issue: await issues.updateIssue(inWorkspace(s), params.identifier, body) },
  })),

  handle("getIssuePageData", async (s, { params }) => ({
    status: 200,
    body: await issues.getIssuePageData(inWorkspace(s), params.identifier),
  })),

  handle("createIssueLink", async (s, { params, body }) => ({
    status: 201,
    body: { link: await issues.createIssueLink(inWorkspace(s), params.identifier, body) },
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
