import { z } from "zod";
import { schema, text } from "../contract.js";
import { shortTime } from "../format.js";
import { identifierInput } from "../inputs.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";

export const commentIssueTool = defineTool({
  name: "comment_issue",
  title: "Comment on issue",
  description:
    "Add a Markdown comment to an issue as the key's owner, or with `commentId` replace the body of one of " +
    "your comments (get_issue shows their ids).",
  input: {
    identifier: identifierInput,
    body: text(schema.CommentBody.body).describe("Markdown."),
    commentId: z.string().min(1).optional().describe("Edit this comment instead of adding one."),
    idempotencyKey: idempotencyKeyInput,
  },
  output: {
    comment: z.object({ id: z.string(), author: z.string(), createdAt: z.string(), edited: z.boolean() }),
  },
  readOnly: false,
  destructive: true,
  idempotent: false,
  async run(input, { tracker, write }) {
    const comment = input.commentId
      ? await tracker.comments.update(input.identifier, input.commentId, { body: input.body }, write())
      : await tracker.comments.create(input.identifier, { body: input.body }, write());
    const verb = input.commentId ? "Edited comment" : "Commented";
    return {
      text: `${verb} on ${input.identifier.toUpperCase()} as ${comment.author.email} at ${shortTime(comment.createdAt)} (comment ${comment.id}).`,
      data: {
        comment: {
          id: comment.id,
          author: comment.author.email,
          createdAt: comment.createdAt,
          edited: comment.edited,
        },
      },
    };
  },
  about: (input) => ({ identifier: input.identifier }),
});
