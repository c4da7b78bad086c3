import type { Schemas } from "@tracker/sdk";
import { priorityName } from "@tracker/sdk";
import type { Column, Palette } from "../../output.js";
import { relativeTime, stateStyle } from "../../output.js";

type Issue = Schemas["Issue"];

function priorityStyle(colours: Palette, priority: number) {
  return priority === 1 ? colours.red : priority === 2 ? colours.yellow : (t: string) => t;
}

/** The columns of every issue listing, shared by `issues list` and anything else that prints issues. */
export const issueColumns: Column<Issue>[] = [
  { header: "ID", value: (i) => i.identifier, style: (_, c) => c.cyan },
  { header: "STATE", value: (i) => i.state.name, style: (i, c) => stateStyle(c, i.state.type) },
  {
    header: "PRIORITY",
    value: (i) => priorityName(i.priority),
    style: (i, c) => priorityStyle(c, i.priority),
  },
  { header: "TITLE", value: (i) => i.title, max: 70, flex: true },
  { header: "ASSIGNEE", value: (i) => i.assignee?.email ?? "", tty: (i) => i.assignee?.name ?? "", max: 24 },
  {
    header: "LABELS",
    value: (i) => i.labels.join(","),
    tty: (i) => i.labels.join(", "),
    max: 30,
    flex: true,
    style: (_, c) => c.magenta,
  },
  {
    header: "UPDATED",
    value: (i) => i.updatedAt,
    tty: (i) => relativeTime(i.updatedAt),
    style: (_, c) => c.gray,
  },
];
