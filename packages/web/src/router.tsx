import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useSyncExternalStore } from "react";

const listeners = new Set<() => void>();
let current = window.location.pathname + window.location.search;

function sync() {
  const next = window.location.pathname + window.location.search;
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

window.addEventListener("popstate", sync);

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Goes to a path of the board without reloading the page. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  sync();
  if (!options.replace) window.scrollTo(0, 0);
}

/** The current path and query, re-rendering on every navigation. */
export function useLocation(): { path: string; search: URLSearchParams; href: string } {
  const href = useSyncExternalStore(subscribe, () => current);
  const url = new URL(href, window.location.origin);
  return { path: url.pathname, search: url.searchParams, href };
}

/** An ordinary link (middle-click and copy keep working) that navigates in place when clicked plainly. */
export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={click} {...rest} />;
}

/** The tab's title while a page is shown: what it is, then the product. */
export function useTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · Tracker` : "Tracker";
  }, [title]);
}
