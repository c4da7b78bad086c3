import { useCallback, useEffect, useSyncExternalStore } from "react";

interface Entry {
  data?: unknown;
  error?: unknown;
  loading: boolean;
  /** Set when a live change may have made the data old: refetched while shown, on next use otherwise. */
  stale: boolean;
  fetcher: (signal: AbortSignal) => Promise<unknown>;
  generation: number;
  /** Aborts the fetch in flight (`cancel`). */
  controller?: AbortController;
}

/**
 * A small read cache shared by every page: what was shown once shows again at once on a later visit
 * (and is refreshed behind it), and a live change marks everything stale so what is on screen refetches.
 */
class Store {
  private readonly entries = new Map<string, Entry>();
  private readonly mounted = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = () => this.version;

  private emit() {
    this.version++;
    for (const listener of this.listeners) listener();
  }

  get(key: string): Entry | undefined {
    return this.entries.get(key);
  }

  /** Fetches `key` unless fresh data or a fetch in flight is there already. */
  ensure(key: string, fetcher: (signal: AbortSignal) => Promise<unknown>): void {
    const entry = this.entries.get(key);
    if (entry) entry.fetcher = fetcher;
    if (entry && (entry.loading || !entry.stale)) return;
    this.load(key, fetcher);
  }

  private load(key: string, fetcher: (signal: AbortSignal) => Promise<unknown>) {
    const previous = this.entries.get(key);
    const controller = new AbortController();
    const entry: Entry = {
      controller,
      data: previous?.data,
      error: undefined,
      loading: true,
      stale: false,
      fetcher,
      generation: (previous?.generation ?? 0) + 1,
    };
    this.entries.set(key, entry);
    this.emit();
    const generation = entry.generation;
    fetcher(controller.signal).then(
      (data) => {
        const current = this.entries.get(key);
        if (current?.generation !== generation) return;
        this.entries.set(key, { ...current, data, error: undefined, loading: false });
        this.emit();
      },
      (error: unknown) => {
        const current = this.entries.get(key);
        if (current?.generation !== generation) return;
        this.entries.set(key, { ...current, error, loading: false });
        this.emit();
      },
    );
  }

  /** Replaces cached data (an optimistic change, or the server's answer to a write). */
  set(key: string, update: (data: unknown) => unknown): void {
    const entry = this.entries.get(key);
    if (!entry || entry.data === undefined) return;
    this.entries.set(key, { ...entry, data: update(entry.data) });
    this.emit();
  }

  /** Every key whose name starts with one of `prefixes` (all keys without any). */
  keys(prefixes?: string[]): string[] {
    return [...this.entries.keys()].filter((k) => !prefixes || prefixes.some((p) => k.startsWith(p)));
  }

  /**
   * Aborts the fetches in flight of `key` and of its parts (`key#…`, a board's columns): a search typed
   * further makes them pointless. Their entries are marked stale, so a later read fetches again. Whether
   * any fetch was aborted.
   */
  cancel(key: string): boolean {
    let aborted = false;
    for (const [k, entry] of this.entries) {
      if ((k !== key && !k.startsWith(`${key}#`)) || !entry.loading) continue;
      entry.controller?.abort();
      aborted = true;
      this.entries.set(k, { ...entry, loading: false, stale: true, generation: entry.generation + 1 });
    }
    if (aborted) this.emit();
    return aborted;
  }

  /** Marks keys stale; those on screen refetch now, the rest when next shown. */
  invalidate(prefixes?: string[]): void {
    for (const key of this.keys(prefixes)) {
      const entry = this.entries.get(key)!;
      entry.stale = true;
      if ((this.mounted.get(key) ?? 0) > 0) this.load(key, entry.fetcher);
    }
  }

  mount(key: string): () => void {
    this.mounted.set(key, (this.mounted.get(key) ?? 0) + 1);
    return () => this.mounted.set(key, (this.mounted.get(key) ?? 1) - 1);
  }

  clear(): void {
    this.owner = undefined;
    this.entries.clear();
    this.emit();
  }

  private owner: string | undefined;

  /** Keeps the cache for one key and workspace: another one starts from nothing. */
  claim(owner: string): void {
    if (this.owner === owner) return;
    this.entries.clear();
    this.owner = owner;
  }
}

export const store = new Store();

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/**
 * Reads `key` through the cache, fetching with `fetcher` when it is missing or stale. `key` null reads
 * nothing (a dependency is not known yet). Data stays shown while it is refreshed.
 */
export function useData<T>(key: string | null, fetcher: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  useSyncExternalStore(store.subscribe, store.getVersion);
  // The fetcher is a new closure each render; the key names what it fetches.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key identifies the fetch
  useEffect(() => {
    if (key === null) return;
    store.ensure(key, fetcher);
    return store.mount(key);
  }, [key]);
  const reload = useCallback(() => {
    if (key !== null) store.invalidate([key]);
  }, [key]);
  const entry = key === null ? undefined : store.get(key);
  return {
    data: entry?.data as T | undefined,
    error: entry?.error,
    loading: key !== null && (entry?.loading ?? true),
    reload,
  };
}
