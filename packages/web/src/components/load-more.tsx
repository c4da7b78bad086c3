import { useCallback, useEffect, useRef, useState } from "react";
import { useApp } from "../app-context.js";
import { type IssuePages, loadMoreIssues } from "../issue-lists.js";
import { describeError } from "../session.js";

/** "200 of 252 issues shown, more to load" (without the server's total: "200 issues shown, …"), or "252 issues". */
function shownText(count: number, hasMore: boolean, total: number | undefined): string {
  const of = hasMore && total !== undefined && total > count ? ` of ${total}` : "";
  const issues = (of ? total! : count) === 1 ? "issue" : "issues";
  return hasMore ? `${count}${of} ${issues} shown, more to load` : `${count} ${issues}`;
}

/**
 * The end of a board or list with more issues than one page: a button (reached with Tab, pressed with
 * Enter) that appends the next page, which scrolling near it presses by itself. `total`, the server's
 * count of the list's issues (`countIssues`), says how many there are in all.
 */
export function LoadMore({
  listKey,
  pages,
  total,
}: {
  listKey: string;
  pages: IssuePages;
  total?: number | undefined;
}) {
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
        {shownText(count, hasMore, total)}
      </p>
      {hasMore && (
        <button ref={button} type="button" onClick={more} aria-busy={busy}>
          {busy ? "Loading more…" : "Load more issues"}
        </button>
      )}
    </div>
  );
}
