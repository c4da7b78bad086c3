import { useSyncExternalStore } from "react";

/**
 * The cards or rows picked for an action on many at once (ids of issues): `x` ticks the focused one,
 * Cmd/Ctrl-click toggles one, Shift-click takes the range from the last one ticked, Esc clears. The bulk
 * bar (components/bulk-bar.tsx) acts on them.
 */
let selected: ReadonlySet<string> = new Set();
let anchor: string | null = null;
const listeners = new Set<() => void>();

function set(next: ReadonlySet<string>) {
  selected = next;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const selectedIds = (): ReadonlySet<string> => selected;

export function useSelection(): ReadonlySet<string> {
  return useSyncExternalStore(subscribe, selectedIds);
}

export function useSelected(id: string): boolean {
  return useSyncExternalStore(subscribe, () => selected.has(id));
}

export function toggleSelected(id: string): void {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  anchor = id;
  set(next);
}

/** Ticks every card or row shown from the last one ticked to `id`, in the page's order. */
export function selectRange(id: string): void {
  const ids = [
    ...new Set(
      [...document.querySelectorAll<HTMLElement>("main [data-issue-id]")].map((el) => el.dataset.issueId!),
    ),
  ];
  const from = anchor ? ids.indexOf(anchor) : -1;
  const to = ids.indexOf(id);
  if (from < 0 || to < 0) {
    toggleSelected(id);
    return;
  }
  const next = new Set(selected);
  for (const each of ids.slice(Math.min(from, to), Math.max(from, to) + 1)) next.add(each);
  set(next);
}

export function clearSelection(): void {
  anchor = null;
  if (selected.size > 0) set(new Set());
}

/** Drops ids no longer shown (archived, moved away). */
export function keepSelected(ids: Iterable<string>): void {
  const keep = new Set(ids);
  const next = new Set([...selected].filter((id) => keep.has(id)));
  if (next.size !== selected.size) set(next);
}

/**
 * A click on a card or row: with Shift it takes a range, with Cmd or Ctrl it toggles the one clicked, and
 * the link is not followed. A plain click opens the issue as before.
 */
export function selectingClick(event: React.MouseEvent, id: string): void {
  if (event.button !== 0 || event.altKey) return;
  if (event.shiftKey) {
    event.preventDefault();
    selectRange(id);
  } else if (event.metaKey || event.ctrlKey) {
    event.preventDefault();
    toggleSelected(id);
  }
}
