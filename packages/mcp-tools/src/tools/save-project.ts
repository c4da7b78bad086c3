import type { BodyOf, CallOptions, Tracker } from "@tracker/sdk";
import { PROJECT_STATUSES } from "@tracker/sdk";
import { z } from "zod";
import { schema, text, texts } from "../contract.js";
import { ToolRefusal } from "../errors.js";
import { dateInput } from "../format.js";
import { initiativeRefInput, projectRefInput, userInput } from "../inputs.js";
import { projectLine, projectRow, readProject, toProjectRow } from "../planning.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user id the contract's removeProjectMember takes, from an email, an id or `me`. */
async function userId(tracker: Tracker, ref: string, read: CallOptions): Promise<string> {
  if (UUID.test(ref)) return ref;
  const users = await tracker.users.list(read);
  const user =
    ref === "me" ? users.find((u) => u.isMe) : users.find((u) => u.email.toLowerCase() === ref.toLowerCase());
  if (!user) throw new ToolRefusal(`No member "${ref}". list_members shows who can be named.`);
  return user.id;
}

const people = z.array(userInput);

export const saveProjectTool = defineTool({
  name: "save_project",
  title: "Create or update project",
  description:
    "Create a project (give `name` and `teams`), or change the one `project` names: only fields given change, " +
    "`null` clears. `addMembers` / `removeMembers` change who has access besides the teams.",
  input: {
    project: projectRefInput.optional().describe("The project to change; omit to create."),
    name: text(schema.ProjectCreate.name).optional().describe("New project's name, or a rename."),
    teams: texts(schema.ProjectCreate.teams).optional().describe("Team keys; on update replaces the set."),
    description: text(schema.ProjectCreate.description).nullable().optional().describe("Markdown."),
    status: z.enum(PROJECT_STATUSES).optional(),
    lead: userInput.nullable().optional(),
    initiative: initiativeRefInput.nullable().optional(),
    startDate: dateInput.nullable().optional(),
    targetDate: dateInput.nullable().optional(),
    addMembers: people.optional(),
    removeMembers: people.optional(),
    idempotencyKey: idempotencyKeyInput,
  },
  output: { project: projectRow, created: z.boolean() },
  readOnly: false,
  destructive: true,
  idempotent: false,
  async run(input, { tracker, read, write }) {
    const { project: ref, addMembers = [], removeMembers = [], idempotencyKey: _key, ...fields } = input;
    const body: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = value;
    let id: string;
    let n = 0;
    if (ref === undefined) {
      if (!input.name || !input.teams)
        throw new ToolRefusal(
          "To create a project give `name` and `teams`; to change one, name it in `project`.",
        );
      id = (await tracker.projects.create(body as BodyOf<"createProject">, write(n++))).id;
    } else {
      if (Object.keys(body).length === 0 && !addMembers.length && !removeMembers.length)
        throw new ToolRefusal("Nothing to change: give a field to set, or members to add or remove.");
      id = Object.keys(body).length
        ? (await tracker.projects.update(ref, body as BodyOf<"updateProject">, write(n++))).id
        : (await tracker.projects.pageData(ref, read)).project.id;
    }
    for (const user of addMembers) await tracker.projects.addMember(id, { user }, write(n++));
    for (const user of removeMembers)
      await tracker.projects.removeMember(id, await userId(tracker, user, read), read);
    const { project } = await readProject(tracker, id, read);
    const row = toProjectRow(project);
    const members =
      addMembers.length || removeMembers.length
        ? (await tracker.projects.members(id, read)).map((m) => m.email)
        : [];
    const text = [
      `${ref === undefined ? "Created" : "Saved"} ${projectLine(row)}`,
      ...(members.length || removeMembers.length
        ? [`members: ${members.join(", ") || "none besides the teams"}`]
        : []),
    ].join("\n");
    return { text, data: { project: row, created: ref === undefined } };
  },
  about: (input) => ({
    project: input.project ?? undefined,
    team: input.teams,
    assignee: input.lead,
    initiative: input.initiative,
  }),
});
