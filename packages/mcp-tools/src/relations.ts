import type { Schemas } from "@tracker/sdk";

type Side = Schemas["IssueRelationSide"];

// How each side of a relation reads in a sentence about the first issue: "ENG-24 is a duplicate of
// ENG-1" cannot be misread, where "ENG-24 duplicate ENG-1" reads both ways.
const PHRASE: Record<Side, string> = {
  blocks: "blocks",
  blocked_by: "is blocked by",
  related: "is related to",
  duplicate: "is a duplicate of",
  duplicated_by: "is duplicated by",
};

/** `ENG-24 is a duplicate of ENG-1`. */
export function relationSentence(identifier: string, side: Side, other: string): string {
  return `${identifier} ${PHRASE[side]} ${other}`;
}

/** The side as a heading word for a list of relations: `blocked by`, `duplicate of`, … */
export function relationWords(side: Side): string {
  return PHRASE[side].replace(/^is (a )?/, "");
}
