import type { Schemas, Tracker } from "@tracker/sdk";
import { type ClipboardEvent, type DragEvent, useState } from "react";

type Media = Schemas["IssueMedia"];

/** `![name](url)` for an image (it renders inline), `[name](url)` for any other file. */
export function mediaMarkdown(media: Media): string {
  const name = (media.title ?? "file").replace(/[[\]]/g, "");
  const image = String(media.metadata.contentType ?? "").startsWith("image/");
  return `${image ? "!" : ""}[${name}](${media.url})`;
}

/**
 * Paste or drop files into a Markdown textarea: each is uploaded to the issue (`uploadAttachment`) and
 * its Markdown inserted where the cursor was. Returns the handlers for the textarea and what is going on.
 */
export function useFileDrop(
  tracker: Tracker,
  identifier: string,
  insert: (markdown: string, at: number) => void,
  onUploaded: () => void,
) {
  const [uploading, setUploading] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const upload = async (files: File[], at: number) => {
    setError(null);
    setUploading((n) => n + files.length);
    for (const file of files) {
      try {
        const media = await tracker.issues.attach(identifier, file, { filename: file.name || "pasted.png" });
        insert(mediaMarkdown(media), at);
        onUploaded();
      } catch (err) {
        setError(err);
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };
  return {
    uploading,
    error,
    handlers: {
      onPaste: (e: ClipboardEvent<HTMLTextAreaElement>) => {
        const files = [...e.clipboardData.files];
        if (!files.length) return;
        e.preventDefault();
        void upload(files, e.currentTarget.selectionStart);
      },
      onDragOver: (e: DragEvent<HTMLTextAreaElement>) => {
        if (e.dataTransfer.types.includes("Files")) e.preventDefault();
      },
      onDrop: (e: DragEvent<HTMLTextAreaElement>) => {
        const files = [...e.dataTransfer.files];
        if (!files.length) return;
        e.preventDefault();
        void upload(files, e.currentTarget.selectionStart);
      },
    },
  };
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
              <a href={m.url} target="_blank" rel="noreferrer">
                <img src={m.url} alt={m.title ?? ""} className="attachment-thumb" />
              </a>
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
