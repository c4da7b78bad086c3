/** The contract's `BranchName`: at most this many characters. */
export const BRANCH_NAME_MAX = 60;

/**
 * The git branch for work on an issue (the contract's `BranchName`): the lowercase identifier, then a slug
 * of the title (ASCII letters and digits, accents dropped, runs of anything else as one `-`), cut at a
 * word boundary to {@link BRANCH_NAME_MAX} characters. `ENG-123` "Fix login crash!" → `eng-123-fix-login-crash`.
 * A branch so named links its pull requests back to the issue (`issue-references.ts` reads it).
 */
export function branchName(identifier: string, title: string): string {
  const head = identifier.toLowerCase();
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (!slug) return head;
  let name = `${head}-${slug}`;
  if (name.length <= BRANCH_NAME_MAX) return name;
  name = name.slice(0, BRANCH_NAME_MAX + 1);
  const cut = name.lastIndexOf("-");
  name = cut > head.length ? name.slice(0, cut) : name.slice(0, BRANCH_NAME_MAX);
  return name.replace(/-+$/g, "");
}
