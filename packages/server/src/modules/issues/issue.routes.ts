import { CONFIRMS_CALLER, handle, inWorkspace, OK } from "../../http/handler.js";
import { countIssues } from "./list/counts.query.js";
import { listIssuesRevalidated } from "./list/revalidate.query.js";
import { getIssuePageData } from "./read/page-data.query.js";
import { getIssueDetail } from "./read/read.query.js";
import { setArchived } from "./write/archive.query.js";
import { createIssues, placeItemRefusal } from "./write/batch.service.js";
import { createIssue } from "./write/create.service.js";
import { deleteIssue } from "./write/delete.query.js";
import { importIssues } from "./write/import.service.js";
import { createIssueLink } from "./write/link.query.js";
import { moveIssues } from "./write/move.query.js";
import * as relations from "./write/relation.query.js";
import { updateIssue } from "./write/update.service.js";

/** Every issue operation: the list (`list/`), the reads (`read/`) and the writes (`write/`). */
export const issueHandlers = [
  handle(
    "listIssues",
    async (s, { query }) => {
      const { workspace: _workspace, ...filter } = query;
      return { status: 200, body: await listIssuesRevalidated(inWorkspace(s), filter) };
    },
    CONFIRMS_CALLER,
  ),

  handle(
    "countIssues",
    async (s, { query }) => {
      const { workspace: _workspace, ...filter } = query;
      return { status: 200, body: await countIssues(inWorkspace(s), filter) };
    },
    CONFIRMS_CALLER,
  ),

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

  handle("deleteIssue", async (s, { params }) => {
    await deleteIssue(inWorkspace(s), params.identifier);
    return { status: 200, body: OK };
  }),

  handle("archiveIssue", async (s, { params }) => ({
    status: 200,
    body: { issue: await setArchived(inWorkspace(s), params.identifier, true) },
  })),

  handle("unarchiveIssue", async (s, { params }) => ({
    status: 200,
    body: { issue: await setArchived(inWorkspace(s), params.identifier, false) },
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

  handle(
    "createIssues",
    async (s, { body }) => ({
      status: 201,
      body: { issues: await createIssues(inWorkspace(s), body.issues) },
    }),
    { placeInvalid: placeItemRefusal },
  ),

  handle(
    "importIssues",
    async (s, { body }) => ({ status: 200, body: await importIssues(inWorkspace(s), body) }),
    { placeInvalid: placeItemRefusal },
  ),

  handle("moveIssues", async (s, { body }) => ({
    status: 200,
    body: { moved: await moveIssues(inWorkspace(s), body.identifiers, body.team) },
  })),
];
