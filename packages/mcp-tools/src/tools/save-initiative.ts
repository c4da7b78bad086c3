import type { BodyOf } from "@tracker/sdk";
import { INITIATIVE_STATUSES } from "@tracker/sdk";
import { z } from "zod";
import { schema, text } from "../contract.js";
import { ToolRefusal } from "../errors.js";
import { dateInput } from "../format.js";
import { initiativeRefInput, userInput } from "../inputs.js";
import { initiativeLine, initiativeRow, readInitiative, toInitiativeRow } from "../planning.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";

export const saveInitiativeTool = defineTool({
  name: "save_initiative",
  title: "Create or update initiative",
  description:
    "Create an initiative (give `name`), or change the one `initiative` names: only fields given change, `null` " +
    "clears. Attach a project to it with save_project `initiative`.",
  input: {
    initiative: initiativeRefInput.optional().describe("The initiative to change; omit to create."),
    name: text(schema.InitiativeCreate.name).optional().describe("New initiative's name, or a rename."),
    description: text(schema.InitiativeCreate.description).nullable().optional().describe("Markdown."),
    status: z.enum(INITIATIVE_STATUSES).optional(),
    lead: userInput.nullable().optional(),
    targetDate: dateInput.nullable().optional(),
    idempotencyKey: idempotencyKeyInput,
  },
  output: { initiative: initiativeRow, created: z.boolean() },
  readOnly: false,
  destructive: true,
  idempotent: false,
  role: "member",
  async run(input, { tracker, read, write }) {
    const { initiative: ref, idempotencyKey: _key, ...fields } = input;
    const body: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = value;
    let id: string;
    if (ref === undefined) {
      if (!input.name)
        throw new ToolRefusal("To create an initiative give `name`; to change one, name it in `initiative`.");
      id = (await tracker.initiatives.create(body as BodyOf<"createInitiative">, write())).id;
    } else {
      if (Object.keys(body).length === 0) throw new ToolRefusal("Nothing to change: give a field to set.");
      id = (await tracker.initiatives.update(ref, body as BodyOf<"updateInitiative">, write())).id;
    }
    const row = toInitiativeRow(await readInitiative(tracker, id, read));
    return {
      text: `${ref === undefined ? "Created" : "Saved"} ${initiativeLine(row)}`,
      data: { initiative: row, created: ref === undefined },
    };
  },
  about: (input) => ({ initiative: input.initiative ?? undefined, assignee: input.lead }),
});
