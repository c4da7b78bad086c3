import { handle, inWorkspace, OK } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { listUsers } from "./member.query.js";
import * as members from "./member.service.js";

export const memberHandlers = [
  handle("listUsers", async (s) => ({
    status: 200,
    body: { users: await listUsers(inWorkspace(s)) },
  })),

  // The contract's updateMember answers `{ok}`, as the service's API names it, with the member beside it
  // as listUsers shows them, with the new role.
  handle("updateMember", async (s, { params, body }) => {
    const scope = inWorkspace(s);
    await members.changeRole(scope, params.userId, body.role);
    const [user] = await listUsers(scope, params.userId);
    if (!user) throw new NotFound("No such member of this workspace.");
    return { status: 200, body: { ok: true as const, user } };
  }),

  handle("removeMember", async (s, { params }) => {
    await members.removeMember(inWorkspace(s), params.userId);
    return { status: 200, body: OK };
  }),
];
