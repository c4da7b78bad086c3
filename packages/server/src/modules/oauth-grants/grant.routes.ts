import { handle, OK } from "../../http/handler.js";
import { myGrants, revokeMyGrant } from "./grant.service.js";

/** The apps the caller authorised through OAuth (`/oauth-grants`). */
export const oauthGrantHandlers = [
  handle("listOAuthGrants", async (s) => ({
    status: 200,
    body: { grants: await myGrants(s.em, s.caller!) },
  })),
  handle("revokeOAuthGrant", async (s, { params }) => {
    await revokeMyGrant(s.em, s.caller!, params.id);
    return { status: 200, body: OK };
  }),
];
