import type { Schemas } from "@tracker/sdk";
import { priorityName } from "@tracker/sdk";
import type { Column } from "../../output.js";
import { relativeTime } from "../../output.js";

type Issue = Schemas["Issue"];

/** The columns of every issue listing, shared by `issues list` and anything else that prints issues. */
export const issueColumns: Column<Issue>[] = [
  { header: "ID", value: (i) => i.identifier },
  { header: "STATE", value: (i) => i.state.name },
  { header: "PRIORITY", value: (i) => priorityName(i.priority) },
  { header: "TITLE", value: (i) => i.title, max: 60 },
  { header: "ASSIGNEE", value: (i) => i.assignee?.email ?? "", tty: (i) => i.assignee?.name ?? "" },
  { header: "LABELS", value: (i) => i.labels.join(","), tty: (i) => i.labels.join(", "), max: 30 },
  { header: "UPDATED", value: (i) => i.updatedAt, tty: (i) => relativeTime(i.updatedAt) },
];
