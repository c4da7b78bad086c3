/**
 * The colour theme: the system's (`prefers-color-scheme`) unless the person picked light or dark, which
 * is remembered in localStorage. styles.css keys its custom properties on `<html data-theme>`; this
 * module has no React so the entry applies it before the first paint.
 */
export type Theme = "system" | "light" | "dark";

export const THEMES: readonly Theme[] = ["system", "light", "dark"];
const KEY = "tracker.theme";
const listeners = new Set<() => void>();

export function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === "system") delete root.dataset.theme;
  else root.dataset.theme = theme;
}

export function setTheme(theme: Theme): void {
  try {
    if (theme === "system") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
  } catch {
    // Storage refused (private mode): the choice lasts for this page.
  }
  applyTheme(theme);
  current = theme;
  for (const listener of listeners) listener();
}

let current: Theme | undefined;

/** For `useSyncExternalStore`: the theme chosen now, and a subscription to its changes. */
export const themeNow = (): Theme => (current ??= storedTheme());
export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
