import * as Popover from "@radix-ui/react-popover";
import type { Schemas } from "@tracker/sdk";
import { useState } from "react";
import { useApp } from "../app-context.js";
import { Markdown } from "./markdown.js";
import { ErrorNote } from "./widgets.js";

/**
 * The "edited" mark of a comment, which opens what it said before (`listCommentRevisions`), oldest
 * first: as on GitHub, an edit never hides what was said. Read when opened, not with the page.
 */
export function EditedMark({ identifier, commentId }: { identifier: string; commentId: string }) {
  const { tracker } = useApp();
  const [revisions, setRevisions] = useState<Schemas["CommentRevision"][] | null>(null);
  const [error, setError] = useState<unknown>(null);
  return (
    <Popover.Root
      onOpenChange={(open) => {
        if (!open) return;
        setError(null);
        tracker.comments.revisions(identifier, commentId).then(setRevisions, setError);
      }}
    >
      <Popover.Trigger asChild>
        <button type="button" className="link-button muted" aria-label="Edited: show earlier versions">
          (edited)
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="popover revisions"
          aria-label="Earlier versions"
          align="start"
          sideOffset={4}
        >
          <ErrorNote error={error} />
          {revisions === null && !error && <p className="muted">Loading…</p>}
          <ol className="plain">
            {revisions?.map((r) => (
              <li key={r.replacedAt}>
                <p className="muted small">
                  Written {new Date(r.writtenAt).toLocaleString()}, replaced{" "}
                  {new Date(r.replacedAt).toLocaleString()}
                </p>
                <Markdown text={r.body} />
              </li>
            ))}
          </ol>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
