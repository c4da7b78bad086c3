import { z } from "zod";
import { schema, text } from "../contract.js";
import { ToolRefusal } from "../errors.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";

const labelName = text(schema.LabelCreate.name);

export const manageLabelsTool = defineTool({
  name: "manage_labels",
  title: "Create, rename or merge labels",
  description:
    "`create` a label; `rename` one (saved views follow); `merge` one into another: its issues carry the " +
    "target instead and it is deleted.",
  input: {
    action: z.enum(["create", "rename", "merge"]),
    label: labelName.describe("The label to create, rename or merge away (name or id)."),
    newName: labelName.optional().describe("rename: the new name."),
    into: labelName.optional().describe("merge: the label that remains."),
    color: text(schema.LabelCreate.color).optional().describe("create/rename: `#rrggbb`."),
    description: text(schema.LabelCreate.description).optional(),
    idempotencyKey: idempotencyKeyInput,
  },
  output: {
    label: z.object({ name: z.string(), color: z.string() }),
    moved: z.number().optional(),
    collapsed: z.number().optional(),
  },
  readOnly: false,
  destructive: true,
  idempotent: false,
  role: "member",
  async run(input, { tracker, write }) {
    const extras = {
      ...(input.color ? { color: input.color } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
    };
    if (input.action === "create") {
      const label = await tracker.labels.create({ name: input.label, ...extras }, write());
      return {
        text: `Created label "${label.name}" ${label.color}.`,
        data: { label: { name: label.name, color: label.color } },
      };
    }
    if (input.action === "rename") {
      if (!input.newName && !input.color && input.description === undefined)
        throw new ToolRefusal("rename needs `newName` (or `color` / `description` to change).");
      const label = await tracker.labels.update(
        input.label,
        { ...(input.newName ? { name: input.newName } : {}), ...extras },
        write(),
      );
      return {
        text: `Label "${input.label}" is now "${label.name}" ${label.color}.`,
        data: { label: { name: label.name, color: label.color } },
      };
    }
    if (!input.into) throw new ToolRefusal("merge needs `into`: the label that remains.");
    const result = await tracker.labels.merge(input.label, { into: input.into }, write());
    return {
      text: `Merged "${input.label}" into "${result.label.name}": ${result.moved} issues moved over, ${result.collapsed} already had both.`,
      data: {
        label: { name: result.label.name, color: result.label.color },
        moved: result.moved,
        collapsed: result.collapsed,
      },
    };
  },
  about: (input) => ({ label: input.label }),
});
