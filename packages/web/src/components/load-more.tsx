import { useCallback, useEffect, useRef, useState } from "react";
import { useApp } from "../app-context.js";
import { type IssuePages, loadMoreIssues } from "../issue-lists.js";
import { describeError } from "../session.js";

/**
 * The end of a board or list with more issues than one page: a button (reached with Tab, pressed with
 * Enter) that appends the next page, which scrolling near it presses by itself.
 */
export function LoadMore({ listKey, pages }: { listKey: string; pages: IssuePages }) {
  const { tracker, notify } = useApp();
  const [busy, setBusy] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const inFlight = useRef(false);
  const more = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      await loadMoreIssues(tracker, listKey);
    } catch (error) {
      notify(`More issues could not be loaded: ${describeError(error)}`, "error");
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }, [tracker, listKey, notify]);

  const hasMore = pages.nextOffset !== null;
  useEffect(() => {
    const element = button.current;
    if (!hasMore || !element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void more();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasMore, more]);

  const count = pages.items.length;
  return (
    <div className="load-more">
      <p className="muted" aria-live="polite">
        {count} {count === 1 ? "issue" : "issues"}
        {hasMore ? " shown, more to load" : ""}
      </p>
      {hasMore && (
        <button ref={button} type="button" onClick={more} aria-busy={busy}>
          {busy ? "Loading more…" : "Load more issues"}
        </button>
      )}
    </div>
  );
}
