import { handle, inWorkspace } from "../../http/handler.js";
import { createIssues, placeItemRefusal } from "./issue-batch.service.js";

export const issueBatchHandlers = [
  handle(
    "createIssues",
    async (s, { body }) => ({
      status: 201,
      body: { issues: await createIssues(inWorkspace(s), body.issues) },
    }),
    { placeInvalid: placeItemRefusal },
  ),
];
