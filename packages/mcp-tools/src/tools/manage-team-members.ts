import type { CallOptions, Tracker } from "@tracker/sdk";
import { z } from "zod";
import { briefError, ToolRefusal } from "../errors.js";
import { teamInput, userInput } from "../inputs.js";
import { defineTool } from "../tool.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Member = { id: string; name: string; email: string };

/** A workspace member by email, id or `me` (the contract's removeTeamMember takes an id or `me`). */
async function member(tracker: Tracker, ref: string, read: CallOptions): Promise<Member | undefined> {
  const users = await tracker.users.list(read);
  return users.find((u) =>
    ref === "me" ? u.isMe : UUID.test(ref) ? u.id === ref : u.email.toLowerCase() === ref.toLowerCase(),
  );
}

export const manageTeamMembersTool = defineTool({
  name: "manage_team_members",
  title: "Add or remove team members",
  description:
    "Add workspace members to a team, or remove them (`me` leaves it). People invited but not yet joined " +
    "cannot be added. Answers the team's members.",
  input: {
    team: teamInput,
    add: z.array(userInput).min(1).optional(),
    remove: z.array(userInput).min(1).optional(),
  },
  output: {
    added: z.array(z.string()),
    removed: z.array(z.string()),
    failed: z.array(z.object({ user: z.string(), error: z.string() })),
    members: z.array(z.object({ name: z.string(), email: z.string() })),
  },
  readOnly: false,
  destructive: true,
  idempotent: true,
  role: "member",
  async run(input, { tracker, read, write }) {
    const { add = [], remove = [] } = input;
    if (!add.length && !remove.length) throw new ToolRefusal("Give `add` or `remove`: emails, ids or `me`.");
    const team = input.team.toUpperCase();
    const added: string[] = [];
    const removed: string[] = [];
    const failed: { user: string; error: string }[] = [];
    let n = 0;
    for (const ref of add) {
      const who = await member(tracker, ref, read);
      if (!who) {
        failed.push({ user: ref, error: "not a member of the workspace (invited but not joined yet?)" });
        continue;
      }
      try {
        await tracker.teams.addMember(team, who.id, write(n++));
        added.push(who.email);
      } catch (err) {
        if (add.length + remove.length === 1) throw err;
        failed.push({ user: ref, error: briefError(err) });
      }
    }
    for (const ref of remove) {
      const who = await member(tracker, ref, read);
      try {
        await tracker.teams.removeMember(team, ref === "me" ? "me" : (who?.id ?? ref), read);
        removed.push(who?.email ?? ref);
      } catch (err) {
        if (add.length + remove.length === 1) throw err;
        failed.push({ user: ref, error: briefError(err) });
      }
    }
    const members = (await tracker.teams.members(team, read)).map((m) => ({ name: m.name, email: m.email }));
    const lines = [
      ...(added.length ? [`Added to ${team}: ${added.join(", ")}.`] : []),
      ...(removed.length ? [`Removed from ${team}: ${removed.join(", ")}.`] : []),
      ...failed.map((f) => `Not done: ${f.user}: ${f.error}`),
      `${team} members: ${members.map((m) => `${m.name} <${m.email}>`).join(", ") || "none"}.`,
    ];
    return { text: lines.join("\n"), data: { added, removed, failed, members }, isError: failed.length > 0 };
  },
  about: (input) => ({ team: input.team, assignee: input.add?.[0] ?? input.remove?.[0] }),
});
