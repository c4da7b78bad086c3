import { handle, inWorkspace } from "../../http/handler.js";
import { listDigest } from "./activity.query.js";

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
];
