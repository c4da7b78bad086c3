import { handle, inWorkspace } from "../../http/handler.js";
import { listDigest } from "./activity.query.js";
import { getIssueHistory } from "./history.query.js";

export const digestHandlers = [
  handle("getDigest", async (s, { query }) => ({
    status: 200,
    body: {
      events: await listDigest(inWorkspace(s), {
        since: query.since,
        limit: query.limit === undefined ? undefined : Number(query.limit),
      }),
    },
  })),

  handle("getIssueHistory", async (s, { params, query }) => ({
    status: 200,
    body: await getIssueHistory(inWorkspace(s), params.identifier, {
      limit: query.limit === undefined ? undefined : Number(query.limit),
      cursor: query.cursor,
    }),
  })),
];
