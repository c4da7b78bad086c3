import { MEMBER_ROLES, TrackerError } from "@tracker/sdk";
import { z } from "zod";
import { oneOf, schema } from "../contract.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";

export const inviteMemberTool = defineTool({
  name: "invite_member",
  title: "Invite to the workspace",
  description:
    "Invite someone by email (admins). Answers the invite link, shown once: pass it on; no email is sent. " +
    "They become a member when they accept it; then manage_team_members adds them to teams.",
  input: {
    email: z.email().describe("Their email."),
    role: oneOf({ enum: MEMBER_ROLES }).optional().describe(`Default ${schema.InviteCreate.role.default}.`),
    idempotencyKey: idempotencyKeyInput,
  },
  output: {
    invite: z.object({ id: z.string(), email: z.string(), role: z.string(), url: z.string() }),
    replaced: z.boolean(),
  },
  readOnly: false,
  destructive: false,
  idempotent: false,
  role: "admin",
  async run(input, { tracker, read, write }) {
    // The contract replaces a pending invite for the same email: say so, since the old link stops working.
    const pending = await tracker.invites.list(read);
    const replaced = pending.some((i) => i.email.toLowerCase() === input.email.toLowerCase());
    let created: Awaited<ReturnType<typeof tracker.invites.create>>;
    try {
      created = await tracker.invites.create(
        { email: input.email, ...(input.role ? { role: input.role } : {}) },
        write(),
      );
    } catch (err) {
      if (err instanceof TrackerError && err.code === "conflict")
        return {
          isError: true,
          text: `${input.email} is already a member of this workspace: nothing to invite. manage_team_members adds them to a team.`,
          data: { invite: { id: "", email: input.email, role: "", url: "" }, replaced: false },
        };
      throw err;
    }
    const invite = { id: created.id, email: created.email, role: created.role, url: created.url };
    return {
      text:
        `Invited ${invite.email} as ${invite.role}${replaced ? " (their earlier invite link no longer works)" : ""}.\n` +
        `Link, shown once: ${invite.url}\n` +
        "They join when they open it; only then can manage_team_members add them to a team.",
      data: { invite, replaced },
    };
  },
});
