import { type CallOptions, type Tracker, TrackerError } from "@tracker/sdk";
import { z } from "zod";
import { schema, text } from "../contract.js";
import { briefError, ToolRefusal } from "../errors.js";
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

const pairInput = z.object({
  identifier: identifierInput,
  type: z.enum(SIDES),
  issue: z.string().min(1),
});

type Change = "related" | "already related" | "removed";

/** One relation made or removed; a refusal or API failure is thrown with what to do. */
async function relateOne(
  tracker: Tracker,
  pair: { identifier: string; type: Side; issue: string },
  remove: boolean,
  read: CallOptions,
  write: CallOptions,
): Promise<{ change: Change; text: string }> {
  const id = pair.identifier.toUpperCase();
  const other = pair.issue.toUpperCase();
  const said = relationSentence(id, pair.type, other);
  if (remove) {
    const { match, relations } = await findRelation(tracker, id, pair.type, other, read);
    if (!match) {
      const present = relations.map((r) => `${r.type} ${r.issue.identifier}`).join(", ") || "none";
      throw new ToolRefusal(`${id} has no relation "${pair.type} ${other}". Its relations: ${present}.`);
    }
    await tracker.issues.deleteRelation(id, match.id, read);
    return { change: "removed", text: `Removed: ${said}.` };
  }
  const r = recorded(pair.type, id, other);
  try {
    await tracker.issues.addRelation(r.from, { issue: r.to, type: r.type }, write);
    return { change: "related", text: `Related: ${said}.` };
  } catch (err) {
    if (!(err instanceof TrackerError && err.code === "conflict")) throw err;
    // 409 also covers the reverse relation (mutual blocking); only an identical one is "already related".
    const { match } = await findRelation(tracker, id, pair.type, other, read);
    if (!match) throw err;
    return { change: "already related", text: `Already related: ${said}.` };
  }
}

export const relateIssuesTool = defineTool({
  name: "relate_issues",
  title: "Relate issues",
  description:
    "Relate an issue to another (`type` from the first issue's side), or several `pairs` at once; `remove: " +
    "true` removes them; or attach a web link (`url`). Relating what is already related changes nothing.",
  input: {
    identifier: identifierInput.optional(),
    type: z.enum(SIDES).optional().describe("Required with `issue`."),
    issue: z.string().min(1).optional().describe("The other issue's identifier."),
    pairs: z.array(pairInput).min(1).max(50).optional(),
    remove: z.boolean().optional(),
    url: z
      .url({ protocol: /^https?$/ })
      .max(schema.IssueLinkCreate.url.maxLength)
      .optional()
      .describe("Attach this link instead."),
    linkTitle: text(schema.IssueLinkCreate.title).optional(),
  },
  output: {
    relations: z.array(pairInput.extend({ change: z.string() })),
    failed: z.array(z.string()),
    link: z.object({ url: z.string(), title: z.string().nullable(), change: z.string() }).nullable(),
  },
  readOnly: false,
  destructive: true,
  idempotent: true,
  async run(input, { tracker, read, write }) {
    if (input.url) {
      if (!input.identifier) throw new ToolRefusal("Give `identifier`: the issue the link goes on.");
      const id = input.identifier.toUpperCase();
      if (input.remove) throw new ToolRefusal("Links cannot be removed through the API; only relations can.");
      const link = { url: input.url, title: input.linkTitle ?? null };
      try {
        await tracker.issues.addLink(id, link, write());
        return {
          text: `Linked ${id} to ${input.url}.`,
          data: { relations: [], failed: [], link: { ...link, change: "linked" } },
        };
      } catch (err) {
        if (!(err instanceof TrackerError && err.code === "conflict")) throw err;
        return {
          text: `${id} already links to ${input.url}.`,
          data: { relations: [], failed: [], link: { ...link, change: "already linked" } },
        };
      }
    }
    const pairs = [...(input.pairs ?? [])];
    if (input.identifier || input.issue || input.type) {
      if (!input.identifier || !input.issue || !input.type)
        throw new ToolRefusal(
          "Give `identifier`, `type` and `issue` to relate two issues, `pairs` for several, or `url` to attach a link.",
        );
      pairs.unshift({ identifier: input.identifier, type: input.type, issue: input.issue });
    }
    if (pairs.length === 0)
      throw new ToolRefusal(
        "Give `identifier`, `type` and `issue` to relate two issues, `pairs` for several, or `url` to attach a link.",
      );
    const relations: (z.output<typeof pairInput> & { change: string })[] = [];
    const lines: string[] = [];
    const failed: string[] = [];
    // One request each (the API relates one pair at a time); a failure is said and the others still go.
    for (const [n, pair] of pairs.entries()) {
      try {
        const done = await relateOne(tracker, pair, input.remove === true, read, write(n));
        relations.push({
          identifier: pair.identifier.toUpperCase(),
          type: pair.type,
          issue: pair.issue.toUpperCase(),
          change: done.change,
        });
        lines.push(done.text);
      } catch (err) {
        if (pairs.length === 1) throw err;
        const line = `${pair.identifier.toUpperCase()} ${pair.type} ${pair.issue.toUpperCase()}: ${briefError(err)}`;
        failed.push(line);
      }
    }
    if (failed.length) lines.push("Failed:", ...failed);
    return { text: lines.join("\n"), data: { relations, failed, link: null }, isError: failed.length > 0 };
  },
  about: (input) => ({ identifier: input.identifier ?? input.pairs?.[0]?.identifier }),
});
