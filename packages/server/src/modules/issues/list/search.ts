import { setsOnly } from "../../../db/sql.js";
import type { SqlFragment } from "../../../db/sql-fragment.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { visibleTeamIdCondition } from "../../../rules/visibility.js";
import { ISSUE_IDENTIFIER } from "../../shared/resolve.query.js";
import { type IssueFilter, notArchivedSql, orderByOver, sortsByUpdated } from "./filter.js";

/**
 * Full-text search of the issue list (`q`): its condition, and the faster first sources a search in
 * `updated` order tries before the list's own statement (`issueListQuery`).
 */

/**
 * The list filter's `q` as a condition on `issues i`. websearch syntax: "quoted phrase", -excluded, or. An
 * exact identifier also matches its issue. The stored column, not the expression: rechecks and filters read
 * the vector instead of re-parsing text. A quoted phrase also requires its adjacent word pairs, which the
 * vector holds as lexemes, so the GIN index finds the issues where the words stand together (migration
 * `issue_search_pairs`, function `tracker_phrase_query` in src/db/functions). `genericPlan`: see
 * `compileIssueFilter`.
 */
export function issueSearchCondition(scope: WorkspaceScope, q: string, genericPlan: boolean): SqlFragment {
  const phrases = requiredPhrases(q);
  let search: string;
  let terms: unknown[];
  if (phrases.length && genericPlan) {
    // The GIN index is asked for the phrases' pairs alone, and each issue it returns is then matched against
    // the whole query. Asked for the whole query, it also reads the posting lists of the phrase's words,
    // which are common where the pair is rare: `"dark mode"` at a million issues read 2 ms of postings for
    // 777 matches, 0.15 ms by its pair (bench/README.md, "A phrase's fallback…"). Only on the generic plan of
    // a search in `updated` order, whose statement reads every match anyway (`issueListQuery`): a plan made
    // for the words would take a pair, which the statistics do not know, for a common one. The pairs are
    // `tracker_phrase_query` of an empty query (`&&` with an empty side gives the other), empty when no
    // phrase has one (a stop word between its words): then, and only then, the whole query is parsed for it.
    search = `(i.search_vector @@ (select coalesce(nullif(tracker_phrase_query(''::tsquery, ?::text[]), ''::tsquery),
                                                   websearch_to_tsquery('english', ?)))
              and ts_match_vq(i.search_vector, (select websearch_to_tsquery('english', ?))))`;
    terms = [phrases, q, q];
  } else {
    const query = phrases.length
      ? "tracker_phrase_query(websearch_to_tsquery('english', ?), ?::text[])"
      : "websearch_to_tsquery('english', ?)";
    search = `i.search_vector @@ ${genericPlan ? `(select ${query})` : query}`;
    terms = phrases.length ? [q, phrases] : [q];
  }
  const m = ISSUE_IDENTIFIER.exec(q);
  if (!m) return { sql: search, params: terms };
  return {
    sql: `(${search} or i.id = (select si.id from issues si join teams st on st.id = si.team_id
                                where st.workspace_id = ? and st.key = ? and si.number = ?))`,
    params: [...terms, scope.workspace.id, m[1]!.toUpperCase(), Number(m[2])],
  };
}

/** Whether a websearch query may have an `or` between its terms (a quoted or lone "or" is a stop word). */
export function mayHaveOr(q: string): boolean {
  return /(^|\s)or(\s|$)/i.test(q);
}

/**
 * The quoted phrases of a websearch query that every match must contain: none when the query has an `or`
 * (a phrase may be one side of it) or an unclosed quote, and not those negated by a `-` before the quote.
 * Leaving a phrase out only makes the search slower, never different.
 */
export function requiredPhrases(q: string): string[] {
  if (mayHaveOr(q) || (q.match(/"/g)?.length ?? 0) % 2 !== 0) return [];
  const phrases: string[] = [];
  for (const m of q.matchAll(/"([^"]*)"/g))
    if (m[1]!.trim() && !/-\s*$/.test(q.slice(0, m.index))) phrases.push(m[1]!);
  return phrases;
}

/** Rows of the default-sort index a recency-ordered search reads before it falls back to the GIN index. */
export const SEARCH_SCAN_ROWS = 4000;
/**
 * The same for a query with a quoted phrase: a phrase is rare among the rows holding its words, which is all
 * the search bits can tell, so the newest rows hold its page only when it is common; otherwise the GIN index,
 * which holds the phrase's word pairs, finds it directly.
 */
export const PHRASE_SCAN_ROWS = 500;

/** The filter keys a recency-ordered search answers for (`isRecentSearch`). */
const RECENT_SEARCH_KEYS: ReadonlySet<string> = new Set(["q", "sort", "limit", "offset"]);

/**
 * Whether the list is a plain full-text search in `updated` order, which `issueListQuery` answers from the
 * recent issues, the default sort's covering index and its search bits, or the GIN index
 * (`searchFirstSource`): only `q` (not an identifier) with paging and sort
 * `updated` or `-updated`.
 */
export function isRecentSearch(filter: IssueFilter): boolean {
  const q = filter.q?.trim();
  if (!q || ISSUE_IDENTIFIER.test(q)) return false;
  return sortsByUpdated(filter) && setsOnly(filter, RECENT_SEARCH_KEYS);
}

/**
 * Whether a search should first look among the workspace's recent issues: newest first, without `or` or a
 * quoted phrase, and with two words or more that every match must hold. A guess from the text (a stop word
 * counts here); the statement itself is right whatever the words.
 */
function searchesRecentFirst(q: string, or: boolean, newestFirst: boolean): boolean {
  if (!newestFirst || or || q.includes('"')) return false;
  return q.split(/\s+/).filter((word) => !word.startsWith("-") && /[\p{L}\p{N}]/u.test(word)).length >= 2;
}

/**
 * The first source of a full-text search's page in `updated` order (`isRecentSearch`): a select of the first
 * `need` matching ids (the page, what it skips, and one more) in that order, or of none when it cannot tell
 * them; the list's own statement over every match (its GIN index: rare words, phrases) follows then. Each is
 * its own statement, whose plan does not depend on the words, so it is prepared once per connection; a
 * statement of all the sources at once spent a quarter of a millisecond just starting and stopping the parts
 * it did not use.
 *
 * - `recent`, newest first for two words or more that every match must hold, without `or`
 *   (`searchesRecentFirst`): the workspace's recent issues (`issue_search_recent`, migration
 *   `issue_search_recent`), through their own GIN index of workspace-prefixed lexemes, which match exactly
 *   when the query does; only those updated since the workspace's `since`, all of which are there. They
 *   tell the page when they hold `need` matches, or when the workspace has no `since` (every issue is
 *   there). Their cost grows with their matches, all sorted: few for words that must all be there. Not for
 *   phrases, whose positions the lexemes do not keep. When they cannot tell, the matches are rare among the
 *   newest issues, which a scan would read, so the GIN index follows directly.
 * - `scan`, otherwise: the first SEARCH_SCAN_ROWS visible issues of the default sort's covering index in
 *   order (PHRASE_SCAN_ROWS with a quoted phrase), skipping those whose search bits lack a bit that every
 *   branch of the query's `or` requires (`tracker_search_masks`, migration `issue_search_branch_masks`)
 *   and rechecking the rest against their stored vector. It tells the page when it finds `need` matches.
 *
 * Both leave archived issues out as the list does (`notArchivedSql`), among the matches only.
 */
export function searchFirstSource(
  scope: WorkspaceScope,
  q: string,
  orderBy: string,
  need: number,
  newestFirst: boolean,
): { text: string; params: unknown[] } {
  const vis = visibleTeamIdCondition(scope, "i.team_id");
  const ws = scope.workspace.id;
  const or = mayHaveOr(q);
  const outerOrder = orderByOver(orderBy, "r");
  if (searchesRecentFirst(q, or, newestFirst)) {
    return {
      text: `select r.id from (
        with s as materialized (select tracker_search_terms_query(?::uuid, websearch_to_tsquery('english', ?)) as rq),
             cut as materialized (select rs.since from issue_search_recent_since rs where rs.workspace_id = ?)
        select i.issue_id as id, i.updated_at, i.team_id, i.number, count(*) over () as found,
               not exists (select 1 from cut) as everything
          from (select i.issue_id, i.updated_at, i.team_id, i.number
                  from issue_search_recent i
                 where i.terms @@ (select rq from s) and i.workspace_id = ? and ${vis.sql}
                   and ${notArchivedSql("i.issue_id", "i.workspace_id")}
                   and i.updated_at >= coalesce((select since from cut), '-infinity')
                 order by ${orderBy}
                 limit ?) i
      ) r
      where r.found >= ? or r.everything
      order by ${outerOrder}`,
      params: [ws, q, ws, ws, ...vis.params, need, need],
    };
  }
  /** The row holds the bits of the mask's words `first..first+3` (1-based) of `tracker_search_masks`. */
  const holds = (first: number) =>
    [0, 1, 2, 3]
      .map((n) => {
        const m = `(select m[${first + n}] from sm)`;
        return `(i.search_bits_${n} & ${m}) = ${m}`;
      })
      .join(" and ");
  // The bits every branch requires, or, with an `or`, those of either branch: a test less per row without.
  const bits = or ? `(${holds(5)}\n                     or ${holds(9)})` : holds(1);
  return {
    text: `select r.id from (
        with s as materialized (select websearch_to_tsquery('english', ?) as tq),
             sm as materialized (select tracker_search_masks(tq) as m from s),
             hits as materialized (
               select i.id, i.updated_at, i.team_id, i.number
                 from (select i.id, i.updated_at, i.team_id, i.number,
                              i.search_bits_0, i.search_bits_1, i.search_bits_2, i.search_bits_3
                         from issues i
                        where i.workspace_id = ? and ${vis.sql}
                        order by ${orderBy}
                        limit ?) i
                where numnode((select tq from s)) > 0
                and ${bits}
                and (select h.search_vector from issues h where h.id = i.id) @@ (select tq from s)
                and ${notArchivedSql("i.id", "?::uuid")}
                order by ${orderBy}
                limit ?)
        select * from hits where (select count(*) from hits) >= ?
      ) r
      order by ${outerOrder}`,
    params: [
      q,
      ws,
      ...vis.params,
      requiredPhrases(q).length ? PHRASE_SCAN_ROWS : SEARCH_SCAN_ROWS,
      ws,
      need,
      need,
    ],
  };
}
