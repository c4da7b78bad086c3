import { responseOf } from "@tracker/sdk";
import { fileFromPath } from "@tracker/sdk/node";
import { z } from "zod";
import { ToolRefusal } from "../errors.js";
import { identifierInput } from "../inputs.js";
import { defineTool } from "../tool.js";

/** Base64 of the most a call carries inline (about 10 MB of bytes); bigger files go by `path`. */
const CONTENT_MAX_CHARS = 14_000_000;

export const attachFileTool = defineTool({
  name: "attach_file",
  title: "Attach a file to an issue",
  description:
    "Upload a file to an issue: `path` (a local file; stdio only) or base64 `content` with `fileName`. " +
    "Answers its URL and Markdown to put in a comment or description.",
  input: {
    identifier: identifierInput,
    path: z.string().min(1).optional(),
    content: z.base64().max(CONTENT_MAX_CHARS).optional(),
    fileName: z.string().min(1).max(255).optional(),
  },
  output: {
    attachment: z.object({
      id: z.string(),
      name: z.string(),
      contentType: z.string(),
      size: z.number(),
      url: z.string(),
    }),
    markdown: z.string(),
  },
  readOnly: false,
  destructive: false,
  idempotent: false,
  async run(input, { tracker, write, localFiles }) {
    if ((input.path === undefined) === (input.content === undefined))
      throw new ToolRefusal("Give either `path` (a local file) or `content` (base64) with `fileName`.");
    let file: { data: Blob | Uint8Array; filename: string };
    if (input.path !== undefined) {
      // Over HTTP the server's disk is not the agent's: reading it would hand out the server's files.
      if (!localFiles)
        throw new ToolRefusal(
          "`path` works only over stdio; send the file as base64 `content` with `fileName`.",
        );
      try {
        file = await fileFromPath(input.path);
      } catch (err) {
        throw new ToolRefusal(`Cannot read ${input.path}: ${(err as Error).message}.`);
      }
      if (input.fileName) file.filename = input.fileName;
    } else {
      if (!input.fileName) throw new ToolRefusal("`content` needs `fileName` (e.g. screenshot.png).");
      file = { data: Buffer.from(input.content!, "base64"), filename: input.fileName };
    }
    const media = await tracker.issues.attach(input.identifier, file.data, {
      ...write(),
      filename: file.filename,
    });
    const name = media.title ?? file.filename;
    const type = media.metadata.contentType ?? "application/octet-stream";
    const url = new URL(media.url, responseOf(media)?.url ?? "http://localhost").toString();
    // The stored path, as comment_issue links it: the server signs it afresh for whoever reads it.
    const markdown = `${type.startsWith("image/") ? "!" : ""}[${name.replace(/[[\]]/g, "")}](${media.url})`;
    const size = media.metadata.size ?? 0;
    return {
      text: `Attached ${name} (${type}, ${size} bytes) to ${input.identifier.toUpperCase()}: ${url}\nMarkdown: ${markdown}`,
      data: { attachment: { id: media.id, name, contentType: type, size, url }, markdown },
    };
  },
  about: (input) => ({ identifier: input.identifier }),
});
