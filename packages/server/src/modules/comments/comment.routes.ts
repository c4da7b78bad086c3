import { handle, inWorkspace, OK } from "../../http/handler.js";
import * as comments from "./comment.service.js";

export const commentHandlers = [
  handle("listComments", async (s, { params }) => ({
    status: 200,
    body: { comments: await comments.listComments(inWorkspace(s), params.identifier) },
  })),

  handle("createComment", async (s, { params, body }) => ({
    status: 201,
    body: { comment: await comments.createComment(inWorkspace(s), params.identifier, body.body) },
  })),

  handle("updateComment", async (s, { params, body }) => ({
    status: 200,
    body: {
      comment: await comments.updateComment(inWorkspace(s), params.identifier, params.commentId, body.body),
    },
  })),

  handle("listCommentRevisions", async (s, { params }) => ({
    status: 200,
    body: {
      revisions: await comments.listCommentRevisions(inWorkspace(s), params.identifier, params.commentId),
    },
  })),

  handle("deleteComment", async (s, { params }) => {
    await comments.deleteComment(inWorkspace(s), params.identifier, params.commentId);
    return { status: 200, body: OK };
  }),
];
