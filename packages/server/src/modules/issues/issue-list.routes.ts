import { CONFIRMS_CALLER, handle, inWorkspace } from "../../http/handler.js";
import { listIssues } from "./issue-list.service.js";

export const issueListHandlers = [
  handle(
    "listIssues",
    async (s, { query }) => {
      const { workspace: _workspace, ...filter } = query;
      return { status: 200, body: await listIssues(inWorkspace(s), filter) };
    },
    CONFIRMS_CALLER,
  ),
];
