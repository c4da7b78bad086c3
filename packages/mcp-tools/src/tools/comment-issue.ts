import { z } from "zod";
import { schema, text } from "../contract.js";
import { shortTime } from "../format.js";
import { identifierInput } from "../inputs.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";

/** The most an agent attaches through `comment_issue` (UTF-16 units; the bytes are at most 3 × this). */
const ATTACHMENT_MAX_CHARS = 64 * 1024;

export const commentIssueTool = defineTool({
  name: "comment_issue",
  title: "Comment on issue",
  description:
    "Add a Markdown comment to an issue as the key's owner, or with `commentId` replace one of your " +
    "comments (get_issue shows ids).",
  input: {
    identifier: identifierInput,
    body: text(schema.CommentBody.body).describe("Markdown."),
    commentId: z.string().min(1).optional().describe("Edit this comment instead of adding one."),
    file: z.string().max(ATTACHMENT_MAX_CHARS).optional().describe("Text file to attach and link."),
    fileName: z.string().optional(),
    idempotencyKey: idempotencyKeyInput,
  },
  output: {
    comment: z.object({ id: z.string(), author: z.string(), createdAt: z.string(), edited: z.boolean() }),
  },
  readOnly: false,
  destructive: true,
  idempotent: false,
  async run(input, { tracker, write }) {
    // The file first, so the comment can link it; an upload is not deduplicated, so a re-sent call may
    // store the file twice but never comments twice.
    const name = input.fileName || "attachment.txt";
    const file = input.file
      ? await tracker.issues.attach(input.identifier, new TextEncoder().encode(input.file), {
          ...write(1),
          filename: name,
          contentType: "text/plain; charset=utf-8",
        })
      : undefined;
    const body = file ? `${input.body}\n\n[${name}](${file.url})` : input.body;
    const comment = input.commentId
      ? await tracker.comments.update(input.identifier, input.commentId, { body }, write())
      : await tracker.comments.create(input.identifier, { body }, write());
    const verb = input.commentId ? "Edited comment" : "Commented";
    return {
      text:
        `${verb} on ${input.identifier.toUpperCase()} as ${comment.author.email} at ${shortTime(comment.createdAt)} (comment ${comment.id}).` +
        (file ? ` Attached ${name} (${file.metadata.size} bytes).` : ""),
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
