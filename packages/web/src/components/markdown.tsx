import { createContext, lazy, Suspense, useContext } from "react";
import { AppContext } from "../app-context.js";

// The renderer is its own chunk: a board never waits for it, a page with Markdown loads it once.
const GfmMarkdown = lazy(() => import("./markdown-gfm.js"));

/**
 * The current download URLs of the attachments of the issue shown, by id (the issue page provides them
 * from its `media`): images and links in its text load with these, not with the expired ones written in.
 */
export const AttachmentUrls = createContext<ReadonlyMap<string, string> | undefined>(undefined);

/**
 * The Markdown people write in descriptions, comments, documents and updates, GitHub-flavoured: tables,
 * task lists (ticked in place when `onToggleTask` is given), autolinks, and identifiers such as ENG-12
 * linked to their issue. Elements, never HTML: nothing in the text can run in the page. Until the
 * renderer has loaded, the text shows as it was written.
 */
export function Markdown({
  text,
  onToggleTask,
}: {
  text: string;
  onToggleTask?: (index: number, checked: boolean) => void;
}) {
  const ws = useContext(AppContext)?.ws;
  const freshUrls = useContext(AttachmentUrls);
  return (
    <div className="markdown">
      <Suspense fallback={<p className="markdown-pending">{text}</p>}>
        <GfmMarkdown text={text} ws={ws} onToggleTask={onToggleTask} freshUrls={freshUrls} />
      </Suspense>
    </div>
  );
}

/** The text with its n-th task list box (in reading order, outside fenced code) ticked or cleared. */
export function toggleTask(text: string, index: number, checked: boolean): string {
  let seen = 0;
  let fenced = false;
  return text
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      if (fenced) return line;
      const match = /^(\s*(?:[-*+]|\d+[.)])\s+)\[( |x|X)\]/.exec(line);
      if (!match) return line;
      if (seen++ !== index) return line;
      return `${match[1]}[${checked ? "x" : " "}]${line.slice(match[0].length)}`;
    })
    .join("\n");
}
