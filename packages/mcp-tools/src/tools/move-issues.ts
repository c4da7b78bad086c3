import { z } from "zod";
import { identifiersInput, teamInput } from "../inputs.js";
import { defineTool } from "../tool.js";

export const moveIssuesTool = defineTool({
  name: "move_issues",
  title: "Move issues to another team",
  description:
    "Move issues to another team, all or none. Each gets a new identifier there (the old one keeps " +
    "resolving), the state of the same name (else type), loses its cycle, and its project when that does " +
    "not include the team.",
  input: { identifiers: identifiersInput, team: teamInput.describe("Target team key, e.g. `OPS`.") },
  output: {
    moved: z.array(
      z.object({ from: z.string(), to: z.string(), droppedCycle: z.boolean(), clearedProject: z.boolean() }),
    ),
  },
  readOnly: false,
  destructive: true,
  idempotent: true,
  async run(input, { tracker, write }) {
    const moved = await tracker.issues.move({ identifiers: input.identifiers, team: input.team }, write());
    const lines = moved.map((m) => {
      if (m.from === m.to) return `${m.from} already in ${input.team.toUpperCase()}`;
      const notes = [m.droppedCycle && "cycle dropped", m.clearedProject && "project cleared"].filter(
        Boolean,
      );
      return `${m.from} → ${m.to}${notes.length ? ` (${notes.join(", ")})` : ""}`;
    });
    return {
      text: lines.join("\n"),
      data: {
        moved: moved.map(({ from, to, droppedCycle, clearedProject }) => ({
          from,
          to,
          droppedCycle,
          clearedProject,
        })),
      },
    };
  },
  about: (input) => ({ team: input.team, identifier: input.identifiers[0] }),
});
