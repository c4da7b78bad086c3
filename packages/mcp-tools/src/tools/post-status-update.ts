import { schema, text, texts } from "../contract.js";
import { updateSubjectInput } from "../inputs.js";
import { toUpdateRow, updateRow } from "../planning.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";
import { draftFromCandidates, subjectOf } from "../updates.js";

export const postStatusUpdateTool = defineTool({
  name: "post_status_update",
  title: "Post status update",
  description:
    "Post a status update on one team, project or initiative; the server adds its current health. Without " +
    "`content` it is written from the candidates (issues completed since the last update), citing them.",
  input: {
    ...updateSubjectInput,
    title: text(schema.StatusUpdateCreate.title),
    content: text(schema.StatusUpdateCreate.content)
      .optional()
      .describe("Markdown; default a list of the candidates."),
    issues: texts(schema.StatusUpdateCreate.issues)
      .optional()
      .describe("Identifiers to cite; default the candidates."),
    idempotencyKey: idempotencyKeyInput,
  },
  output: { update: updateRow },
  readOnly: false,
  destructive: false,
  idempotent: false,
  role: "member",
  async run(input, { tracker, read, write }) {
    const { query, label } = subjectOf(input);
    let { content, issues } = input;
    if (content === undefined) {
      const candidates = await tracker.updates.candidates(query, read);
      content = draftFromCandidates(candidates);
      issues ??= candidates.issues.map((i) => i.identifier);
    }
    const posted = await tracker.updates.create(
      { ...query, title: input.title, content, ...(issues?.length ? { issues } : {}) },
      write(),
    );
    const update = toUpdateRow(posted);
    return {
      text: `Posted "${update.title}" on ${label}, health ${update.health}${update.issues.length ? `, citing ${update.issues.join(", ")}` : ""}.\n\n${posted.content}`,
      data: { update },
    };
  },
  about: (input) => ({ team: input.team, project: input.project, initiative: input.initiative }),
});
