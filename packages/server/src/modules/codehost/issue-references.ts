/**
 * Issue identifiers in what a code host sends: branch names, pull request titles and bodies, commit
 * messages (the contract's `receiveGithubDelivery`). An identifier is a team key (a letter, then up to six
 * letters or digits, as `TeamKey`) and a number, in any case, standing on its own: `ENG-123`,
 * `eng-123-fix-login`, `ada/eng-123`, `[ENG-123]`, but not `XENG-123` or `ENG-1234x`.
 */

/** How a reference links its issue: `closes` moves it by the workflow rules, `related` only links. */
export type ReferenceKind = "closes" | "related";

export interface IssueReference {
  /** Upper case, as the issue's identifier is written: `ENG-123`. */
  identifier: string;
  kind: ReferenceKind;
}

const IDENTIFIER = `([A-Za-z][A-Za-z0-9]{0,6})-([1-9][0-9]{0,8})`;
/** An identifier not inside a longer word (`_` counts as a separator, as in `eng-1_fix`). */
const STANDALONE = new RegExp(`(?<![A-Za-z0-9])${IDENTIFIER}(?![A-Za-z0-9])`, "g");

const CLOSING = ["fixes", "fixed", "fix", "closes", "closed", "close", "resolves", "resolved", "resolve"];
const LINKING = ["part of", "ref", "refs", "references", "related to", "relates to"];
/**
 * A magic word, then one or more identifiers separated by commas, `and` or spaces:
 * `Fixes ENG-1, ENG-2 and ENG-3`, `Part of: ENG-4`.
 */
const MAGIC = new RegExp(
  String.raw`(?<![A-Za-z])(${[...CLOSING, ...LINKING].map((w) => w.replace(" ", "\\s+")).join("|")})\s*:?\s+` +
    String.raw`((?:#?${IDENTIFIER.replace(/\(/g, "(?:")}(?:\s*(?:,|and|&)\s*|\s+)?)+)`,
  "gi",
);

function identifiersIn(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(STANDALONE)) found.push(`${m[1]!.toUpperCase()}-${m[2]}`);
  return found;
}

/** Every standalone identifier: for branch names and titles, where a mention makes the PR the issue's. */
export function mentionedIdentifiers(text: string | null | undefined): string[] {
  return text ? identifiersIn(text) : [];
}

/**
 * Identifiers after a magic word only, in a PR body or commit message: closing words (`Fixes`, `Closes`,
 * `Resolves` and their forms) give `closes`, linking words (`Part of`, `Ref`, `Related to`, ...) `related`.
 */
export function magicWordReferences(text: string | null | undefined): IssueReference[] {
  if (!text) return [];
  const out: IssueReference[] = [];
  for (const m of text.matchAll(MAGIC)) {
    const word = m[1]!.toLowerCase().replace(/\s+/g, " ");
    const kind: ReferenceKind = CLOSING.includes(word) ? "closes" : "related";
    for (const identifier of identifiersIn(m[2]!)) out.push({ identifier, kind });
  }
  return out;
}

/**
 * One reference per identifier: a closing one wins over a link-only one for the same issue (a PR titled
 * `ENG-1: ...` whose body says `Part of ENG-1` still closes it).
 */
export function mergeReferences(refs: IssueReference[]): IssueReference[] {
  const byId = new Map<string, IssueReference>();
  for (const ref of refs) {
    const prior = byId.get(ref.identifier);
    if (!prior || (prior.kind === "related" && ref.kind === "closes")) byId.set(ref.identifier, ref);
  }
  return [...byId.values()];
}

/** A pull request's references: its branch and title name its issues; its body names more by magic words. */
export function pullRequestReferences(pr: {
  branch: string | null | undefined;
  title: string | null | undefined;
  body: string | null | undefined;
}): IssueReference[] {
  return mergeReferences([
    ...mentionedIdentifiers(pr.branch).map((identifier) => ({ identifier, kind: "closes" as const })),
    ...mentionedIdentifiers(pr.title).map((identifier) => ({ identifier, kind: "closes" as const })),
    ...magicWordReferences(pr.body),
  ]);
}
