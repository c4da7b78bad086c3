import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { z } from "zod";
import { completeTeamKeys } from "../completions.js";
import { issueLines, toIssueRow } from "../format.js";
import { definePrompt } from "./prompt.js";

const OPEN = ["backlog", "unstarted", "started"] as const;

export const triagePrompt = definePrompt({
  name: "triage",
  title: "Triage a team's work",
  description:
    "Triage a team's untriaged (open, unassigned) and overdue issues, with its states and members to act on them.",
  args: (deps) => ({
    team: completable(z.string().min(1).describe("Team key, e.g. ENG."), (typed) =>
      completeTeamKeys(deps, typed),
    ),
  }),
  async text(deps, { team }, { read, offers }) {
    const { tracker } = deps;
    const key = team.toUpperCase();
    const [teams, members, untriaged, overdue] = await Promise.all([
      tracker.teams.list(read),
      tracker.teams.members(key, read),
      tracker.issues.list(
        { team: key, stateType: [...OPEN], special: ["unassigned"], sort: "-created", limit: 50 },
        read,
      ),
      tracker.issues.list({ team: key, special: ["overdue"], sort: "due", limit: 50 }, read),
    ]);
    const states = teams.find((t) => t.key === key)?.states ?? [];
    const section = (title: string, page: typeof untriaged) => [
      "",
      `${title}${page.nextOffset === null ? "" : " (first 50; search_issues has the rest)"}:`,
      ...(page.items.length ? issueLines(page.items.map(toIssueRow)) : ["none"]),
    ];
    // Name only the tools this session offers: a read-only session gets a plan for a person instead.
    const how = offers("update_issues")
      ? [
          `Triage team ${key}. For each issue below, decide its priority, assignee and state; move overdue work on`,
          "(a new due date, a new assignee, or a comment on why it slipped). Give the same change to several issues",
          "in one update_issues call." +
            (offers("comment_issue") ? " Ask for missing details with comment_issue." : "") +
            (offers("relate_issues") ? " Mark duplicates with relate_issues (type duplicate)." : ""),
          "Finish with a short list of what you changed and what needs a person.",
        ]
      : [
          `Triage team ${key}. This session can only read, so change nothing: for each issue below, propose its`,
          "priority, assignee and state, and for overdue work a new due date, a new assignee, or why it slipped;",
          "note likely duplicates. Answer with that list, grouped by the change, for a person to apply.",
        ];
    return [
      ...how,
      "",
      `States of ${key}: ${states.map((s) => `${s.name} (${s.type})`).join(", ")}`,
      `Members (assignee takes the email): ${members.map((m) => `${m.name} <${m.email}>`).join(", ")}`,
      ...section("Untriaged: open and unassigned, newest first", untriaged),
      ...section("Overdue: open and past their due date, most overdue first", overdue),
    ].join("\n");
  },
});
