import type { BodyOf, Schemas, Tracker } from "@tracker/sdk";
import { createContext, useContext } from "react";

export type Team = Schemas["Team"];
export type Issue = Schemas["Issue"];
export type NewIssueDefaults = Partial<BodyOf<"createIssue">>;

export interface AppContextValue {
  tracker: Tracker;
  /** The workspace slug, the first segment of every path. */
  ws: string;
  me: Schemas["User"] | undefined;
  teams: Team[];
  openCreate(defaults?: NewIssueDefaults): void;
  notify(message: string, kind?: "error" | "info", link?: NoticeLink): void;
}

/** What a notice offers besides its message: a link to follow, or an action to run (Undo), which closes it. */
export type NoticeLink = { to: string; label: string } | { label: string; run(): void };

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error("useApp outside the signed-in app");
  return value;
}
