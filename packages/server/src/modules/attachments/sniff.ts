import { fileTypeFromBuffer } from "file-type";
import { imageSize } from "image-size";

/** What the bytes say a file is: the type served, and an image's size. */
export interface Sniffed {
  contentType: string;
  width: number | null;
  height: number | null;
}

/** How much of a file's start is kept to sniff it: enough for every header `file-type` and `image-size` read. */
export const SNIFF_BYTES = 256 * 1024;

/**
 * Types a browser shows in the page without running anything: served `inline`. Anything else (HTML, SVG,
 * XML, PDF, scripts, archives, the unknown) is served `Content-Disposition: attachment`, so a file uploaded
 * by one member can never run as this origin's page in another's browser.
 */
const INLINE_TYPES = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
  "video/mp4",
  "video/webm",
  "audio/mpeg",
  "audio/ogg",
  "audio/wav",
  "text/plain; charset=utf-8",
]);

export function servedInline(contentType: string): boolean {
  return INLINE_TYPES.has(contentType);
}

/**
 * The type from the bytes, never the client's word: binary formats by their signature (`file-type`);
 * text (valid UTF-8 without NUL) as plain text unless it opens like markup, which is named for what a
 * browser would make of it (HTML, SVG, XML) so it is never served inline; anything else is
 * `application/octet-stream`.
 */
export async function sniff(head: Buffer): Promise<Sniffed> {
  const detected = await fileTypeFromBuffer(head);
  let contentType = detected?.mime ?? textType(head) ?? "application/octet-stream";
  if (contentType === "application/xml" && /<svg[\s>]/i.test(head.toString("utf8", 0, 4096)))
    contentType = "image/svg+xml";
  let width: number | null = null;
  let height: number | null = null;
  if (contentType.startsWith("image/") && contentType !== "image/svg+xml") {
    try {
      const size = imageSize(head);
      width = size.width ?? null;
      height = size.height ?? null;
    } catch {
      // A header cut short or a format image-size does not know: the size stays unknown.
    }
  }
  return { contentType, width, height };
}

function textType(head: Buffer): string | undefined {
  if (head.length === 0) return undefined;
  // Control bytes other than tab, line feed, form feed, carriage return and escape: binary, not text.
  for (const byte of head) if (byte < 0x20 && ![9, 10, 12, 13, 27].includes(byte)) return undefined;
  // A multi-byte character cut at the end of the sniffed part is still text.
  const text = new TextDecoder("utf-8", { fatal: false }).decode(head);
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  if (bad > 1) return undefined;
  const start = text.trimStart().slice(0, 1024).toLowerCase();
  if (start.startsWith("<")) {
    if (/<svg[\s>]/.test(start)) return "image/svg+xml";
    if (start.startsWith("<?xml")) return "application/xml";
    return "text/html";
  }
  return "text/plain; charset=utf-8";
}
