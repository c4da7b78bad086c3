import { z } from "zod";
import { ToolRefusal } from "../errors.js";
import { defineTool } from "../tool.js";

export const whoamiTool = defineTool({
  name: "whoami",
  title: "Who am I",
  description:
    "Whose key this server acts with (name, email, role; `me` in filters) and the workspaces the key reaches " +
    "(* marks its active one).",
  input: {},
  output: {
    user: z.object({ name: z.string(), email: z.string(), role: z.string() }),
    workspaces: z.array(
      z.object({ slug: z.string(), name: z.string(), role: z.string(), active: z.boolean() }),
    ),
  },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(_input, { tracker, read }) {
    const [users, all] = await Promise.all([tracker.users.list(read), tracker.workspaces.list(read)]);
    const me = users.find((u) => u.isMe);
    if (!me) throw new ToolRefusal("The server marked no user as the key's owner.");
    const workspaces = all.map((w) => ({ slug: w.slug, name: w.name, role: w.role, active: w.isActive }));
    const lines = [
      `You are ${me.name} <${me.email}>, ${me.role}.`,
      ...workspaces.map((w) => `${w.active ? "* " : "  "}${w.slug} (${w.name}) ${w.role}`),
    ];
    return {
      text: lines.join("\n"),
      data: { user: { name: me.name, email: me.email, role: me.role }, workspaces },
    };
  },
});
