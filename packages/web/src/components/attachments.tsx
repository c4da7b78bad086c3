import type { Schemas, Tracker } from "@tracker/sdk";
import { type ClipboardEvent, type DragEvent, useState } from "react";
import { ZoomableImage } from "./zoomable-image.js";

type Media = Schemas["IssueMedia"];

/** `![name](url)` for an image (it renders inline), `[name](url)` for any other file. */
export function mediaMarkdown(media: Media): string {
  const name = (media.title ?? "file").replace(/[[\]]/g, "");
  const image = String(media.metadata.contentType ?? "").startsWith("image/");
  return `${image ? "!" : ""}[${name}](${media.url})`;
}

/** A file on its way up: its name, and how many of its bytes are sent. */
export interface Upload {
  key: number;
  name: string;
  sent: number;
  total: number | undefined;
}

let nextUpload = 0;

/**
 * Paste or drop files into a Markdown textarea: each is uploaded to the issue (`uploadAttachment`) and
 * its Markdown inserted where the cursor was. Returns the handlers for the textarea and the uploads in
 * flight with their progress (shown by {@link UploadProgressList}).
 */
export function useFileDrop(
  tracker: Tracker,
  identifier: string,
  insert: (markdown: string, at: number) => void,
  onUploaded: () => void,
) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [error, setError] = useState<unknown>(null);
  const upload = async (files: File[], at: number) => {
    setError(null);
    const started = files.map((file) => ({
      file,
      key: nextUpload++,
      name: file.name || "pasted.png",
    }));
    setUploads((list) => [
      ...list,
      ...started.map(({ key, name, file }) => ({ key, name, sent: 0, total: file.size })),
    ]);
    const progress = (key: number, sent: number, total: number | undefined) =>
      setUploads((list) => list.map((u) => (u.key === key ? { ...u, sent, total: total ?? u.total } : u)));
    for (const { file, key, name } of started) {
      try {
        const media = await tracker.issues.attach(identifier, file, {
          filename: name,
          onProgress: (p) => progress(key, p.sent, p.total),
        });
        insert(mediaMarkdown(media), at);
        onUploaded();
      } catch (err) {
        setError(err);
      } finally {
        setUploads((list) => list.filter((u) => u.key !== key));
      }
    }
  };
  /** Takes the files a paste or a drop carries, if any, from the textarea's default handling. */
  const take = (list: FileList, e: ClipboardEvent<HTMLTextAreaElement> | DragEvent<HTMLTextAreaElement>) => {
    const files = [...list];
    if (!files.length) return;
    e.preventDefault();
    void upload(files, e.currentTarget.selectionStart);
  };
  return {
    uploading: uploads.length,
    uploads,
    error,
    handlers: {
      onPaste: (e: ClipboardEvent<HTMLTextAreaElement>) => take(e.clipboardData.files, e),
      onDragOver: (e: DragEvent<HTMLTextAreaElement>) => {
        if (e.dataTransfer.types.includes("Files")) e.preventDefault();
      },
      onDrop: (e: DragEvent<HTMLTextAreaElement>) => take(e.dataTransfer.files, e),
    },
  };
}

/** Each upload in flight as a progress bar with its name and how much is sent. */
export function UploadProgressList({ uploads }: { uploads: Upload[] }) {
  if (!uploads.length) return null;
  return (
    <ul className="uploads plain" aria-label="Uploads">
      {uploads.map((u) => (
        <li key={u.key}>
          <progress
            aria-label={`Uploading ${u.name}`}
            value={u.sent}
            max={u.total && u.total > 0 ? u.total : undefined}
          />{" "}
          <span className="muted small">
            {u.name} {u.total ? `${Math.floor((100 * u.sent) / u.total)}%` : size(u.sent)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The text with `markdown` put in at `at`, on a line of its own. */
export function insertAt(text: string, markdown: string, at: number): string {
  const before = text.slice(0, at);
  const after = text.slice(at);
  const lead = before && !before.endsWith("\n") ? "\n" : "";
  return `${before}${lead}${markdown}\n${after}`;
}

function size(bytes: unknown): string {
  if (typeof bytes !== "number") return "";
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** The issue's files: name (a link that downloads or opens it), type and size; images as thumbnails. */
export function AttachmentList({ media }: { media: Media[] }) {
  if (!media.length) return null;
  return (
    <section className="attachments" aria-label="Attachments">
      <h2>Attachments</h2>
      <ul>
        {media.map((m) => (
          <li key={m.id}>
            {String(m.metadata.contentType).startsWith("image/") && (
              <ZoomableImage src={m.url} alt={m.title ?? ""} className="attachment-thumb" />
            )}
            <a href={m.url} target="_blank" rel="noreferrer">
              {m.title ?? m.id}
            </a>{" "}
            <span className="muted">
              {String(m.metadata.contentType)}, {size(m.metadata.size)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
