import { z } from "zod";
import { identifierInput } from "../inputs.js";
import { defineTool } from "../tool.js";

export const deleteIssueTool = defineTool({
  name: "delete_issue",
  title: "Delete an issue",
  description:
    "Delete an issue for good, with its comments, relations and history; its sub-issues stay without a " +
    "parent. Only workspace admins and the issue's creator may. Cannot be undone: prefer closing it.",
  input: { identifier: identifierInput },
  output: { deleted: z.string() },
  readOnly: false,
  destructive: true,
  idempotent: false,
  async run(input, { tracker, write }) {
    await tracker.issues.delete(input.identifier, write());
    const identifier = input.identifier.toUpperCase();
    return { text: `Deleted ${identifier}.`, data: { deleted: identifier } };
  },
  about: (input) => ({ identifier: input.identifier }),
});
