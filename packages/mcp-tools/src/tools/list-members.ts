import { z } from "zod";
import { cursorInput, pageFooter, pageOutput, slicePage } from "../cursor.js";
import { limitInput, teamInput } from "../inputs.js";
import { defineTool } from "../tool.js";

export const listMembersTool = defineTool({
  name: "list_members",
  title: "List members",
  description:
    "The workspace's members (name, email, role), or a team's with `team`. Emails are what `assignee` and " +
    "`lead` take; `me` is the key's owner, marked (you).",
  input: {
    team: teamInput.optional().describe("Only this team's members."),
    limit: limitInput(500, 100),
    cursor: cursorInput,
  },
  output: {
    members: z.array(
      z.object({ name: z.string(), email: z.string(), role: z.string().nullable(), me: z.boolean() }),
    ),
    ...pageOutput,
  },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const users = await tracker.users.list(read);
    const byId = new Map(users.map((u) => [u.id, u]));
    const people = input.team ? await tracker.teams.members(input.team, read) : users;
    const page = slicePage(people, input.cursor, input.limit, { team: input.team?.toUpperCase() ?? null });
    const members = page.items.map((p) => {
      const user = byId.get(p.id);
      return { name: p.name, email: p.email, role: user?.role ?? null, me: user?.isMe ?? false };
    });
    const lines = members.map(
      (m) => `${m.name} <${m.email}>${m.role ? ` ${m.role}` : ""}${m.me ? " (you)" : ""}`,
    );
    if (page.hasMore) lines.push(pageFooter(members.length, "member", page));
    return {
      text: lines.join("\n") || "No members.",
      data: { members, cursor: page.cursor, hasMore: page.hasMore },
    };
  },
  about: (input) => ({ team: input.team }),
});
