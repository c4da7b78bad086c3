import { type CallOptions, type Tracker, TrackerError } from "@tracker/sdk";
import { z } from "zod";
import { schema, text } from "../contract.js";
import { ToolRefusal } from "../errors.js";
import { identifierInput } from "../inputs.js";
import { relationSentence } from "../relations.js";
import { defineTool } from "../tool.js";

const SIDES = ["blocks", "blocked_by", "related", "duplicate", "duplicated_by"] as const;
type Side = (typeof SIDES)[number];

// The contract records a relation from the path issue (`blocks`, `related`, `duplicate`); the reverse
// sides are the same relation recorded from the other issue.
function recorded(side: Side, identifier: string, other: string) {
  if (side === "blocked_by") return { from: other, to: identifier, type: "blocks" as const };
  if (side === "duplicated_by") return { from: other, to: identifier, type: "duplicate" as const };
  return { from: identifier, to: other, type: side };
}

async function findRelation(
  tracker: Tracker,
  identifier: string,
  side: Side,
  other: string,
  read: CallOptions,
) {
  const relations = await tracker.issues.relations(identifier, read);
  const match = relations.find(
    (r) => r.type === side && r.issue.identifier.toUpperCase() === other.toUpperCase(),
  );
  return { match, relations };
}

export const relateIssuesTool = defineTool({
  name: "relate_issues",
  title: "Relate issues",
  description:
    "Relate an issue to another (`type` from the first issue's side: blocks, blocked_by, related, duplicate, " +
    "duplicated_by), remove such a relation (`remove: true`), or attach a web link (`url`). Relating what is " +
    "already related changes nothing.",
  input: {
    identifier: identifierInput,
    type: z.enum(SIDES).optional().describe("Required with `issue`."),
    issue: z.string().min(1).optional().describe("The other issue's identifier."),
    remove: z.boolean().optional().describe("Remove the relation instead."),
    url: z
      .url({ protocol: /^https?$/ })
      .max(schema.IssueLinkCreate.url.maxLength)
      .optional()
      .describe("Attach this link instead."),
    linkTitle: text(schema.IssueLinkCreate.title).optional(),
  },
  output: {
    change: z.enum(["related", "already related", "removed", "linked", "already linked"]),
    relation: z.object({ type: z.string(), issue: z.string() }).nullable(),
    link: z.object({ url: z.string(), title: z.string().nullable() }).nullable(),
  },
  readOnly: false,
  destructive: true,
  idempotent: true,
  async run(input, { tracker, read, write }) {
    const id = input.identifier.toUpperCase();
    if (input.url) {
      if (input.remove) throw new ToolRefusal("Links cannot be removed through the API; only relations can.");
      const link = { url: input.url, title: input.linkTitle ?? null };
      try {
        await tracker.issues.addLink(id, link, write());
        return {
          text: `Linked ${id} to ${input.url}.`,
          data: { change: "linked" as const, relation: null, link },
        };
      } catch (err) {
        if (!(err instanceof TrackerError && err.code === "conflict")) throw err;
        return {
          text: `${id} already links to ${input.url}.`,
          data: { change: "already linked" as const, relation: null, link },
        };
      }
    }
    if (!input.issue || !input.type)
      throw new ToolRefusal("Give `type` and `issue` to relate two issues, or `url` to attach a link.");
    const other = input.issue.toUpperCase();
    const relation = { type: input.type, issue: other };
    const said = relationSentence(id, input.type, other);
    if (input.remove) {
      const { match, relations } = await findRelation(tracker, id, input.type, other, read);
      if (!match) {
        const present = relations.map((r) => `${r.type} ${r.issue.identifier}`).join(", ") || "none";
        throw new ToolRefusal(`${id} has no relation "${input.type} ${other}". Its relations: ${present}.`);
      }
      await tracker.issues.deleteRelation(id, match.id, read);
      return { text: `Removed: ${said}.`, data: { change: "removed" as const, relation, link: null } };
    }
    const r = recorded(input.type, id, other);
    try {
      await tracker.issues.addRelation(r.from, { issue: r.to, type: r.type }, write());
      return { text: `Related: ${said}.`, data: { change: "related" as const, relation, link: null } };
    } catch (err) {
      if (!(err instanceof TrackerError && err.code === "conflict")) throw err;
      // 409 also covers the reverse relation (mutual blocking); only an identical one is "already related".
      const { match } = await findRelation(tracker, id, input.type, other, read);
      if (!match) throw err;
      return {
        text: `Already related: ${said}.`,
        data: { change: "already related" as const, relation, link: null },
      };
    }
  },
  about: (input) => ({ identifier: input.identifier }),
});
