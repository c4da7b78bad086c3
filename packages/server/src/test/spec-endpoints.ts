/**
 * The endpoint tables of the service's REST API document ("Issue Tracking Service REST API", section
 * "Endpoints"), transcribed as data: each row's method, path and the top-level keys its answer names.
 * That document is what clients were written against; the contract (`openapi.yaml`) may add keys and
 * operations beside these, never replace them. `http/spec-answers.test.ts` checks every row against the
 * contract's response schema and against a live answer, so a change that drops a named key fails there.
 *
 * Paths are written as the document writes them (`:identifier`); `keys` are the answer's top-level keys
 * exactly as the document names them ("{ok}", "{issue}", "{deleted, deletedProjects, ...}"). A row whose
 * answer the document gives as "the workflow rule" lists that object's own fields; the event stream's
 * answer is not JSON and has no keys.
 */
export interface SpecEndpoint {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  keys: string[];
  /** The document's table the row is from. */
  table: string;
}

const rows = (table: string, list: [SpecEndpoint["method"], string, string[]][]): SpecEndpoint[] =>
  list.map(([method, path, keys]) => ({ method, path, keys, table }));

export const SPEC_ENDPOINTS: SpecEndpoint[] = [
  ...rows("Workspace-level", [
    ["GET", "/workspaces", ["workspaces"]],
    ["POST", "/workspaces", ["workspace"]],
    ["PUT", "/workspaces/active", ["workspace"]],
    ["PATCH", "/workspace", ["ok"]],
    ["GET", "/workspace/codehost", ["configured", "path", "events"]],
    ["GET", "/invites", ["invites"]],
    ["POST", "/invites", ["invite"]],
    ["DELETE", "/invites/:id", ["ok"]],
    ["PATCH", "/members/:userId", ["ok"]],
    ["DELETE", "/members/:userId", ["ok"]],
    ["GET", "/users", ["users"]],
  ]),
  ...rows("API keys", [
    ["GET", "/api-keys", ["keys"]],
    ["POST", "/api-keys", ["key"]],
    ["DELETE", "/api-keys/:id", ["ok"]],
  ]),
  ...rows("Teams", [
    ["GET", "/teams", ["teams"]],
    ["POST", "/teams", ["team"]],
    ["GET", "/teams/all", ["teams"]],
    ["PATCH", "/teams/:key", ["ok"]],
    ["DELETE", "/teams/:key", ["deleted", "deletedProjects", "detachedProjects"]],
    ["POST", "/teams/:key/join", ["ok"]],
    ["GET", "/teams/:key/members", ["members", "workspaceMembers"]],
    ["POST", "/teams/:key/members", ["ok"]],
    ["DELETE", "/teams/:key/members/:userId", ["ok"]],
    ["GET", "/teams/:key/workflows", ["workflows", "states", "projects"]],
    ["POST", "/teams/:key/workflows", ["id", "trigger", "projectId", "targetStateId"]],
    ["DELETE", "/teams/:key/workflows/:ruleId", ["ok"]],
  ]),
  ...rows("Issues", [
    ["GET", "/issues", ["issues"]],
    ["POST", "/issues", ["issue"]],
    ["GET", "/issues/:identifier", ["issue"]],
    ["PATCH", "/issues/:identifier", ["issue"]],
    [
      "GET",
      "/issues/:identifier/page-data",
      [
        "issue",
        "estimates",
        "members",
        "projects",
        "cycles",
        "comments",
        "subIssues",
        "documents",
        "relations",
        "blockedByOpen",
        "media",
        "links",
      ],
    ],
    ["POST", "/issues/:identifier/links", ["link"]],
    ["GET", "/issues/:identifier/relations", ["relations"]],
    ["POST", "/issues/:identifier/relations", ["relation"]],
    ["DELETE", "/issues/:identifier/relations/:relationId", ["ok"]],
    ["POST", "/issues/move", ["moved"]],
    ["GET", "/issues/:identifier/comments", ["comments"]],
    ["POST", "/issues/:identifier/comments", ["comment"]],
    ["PATCH", "/issues/:identifier/comments/:commentId", ["comment"]],
    ["DELETE", "/issues/:identifier/comments/:commentId", ["ok"]],
  ]),
  ...rows("Projects", [
    ["GET", "/projects", ["projects"]],
    ["POST", "/projects", ["project"]],
    ["PATCH", "/projects/:id", ["project"]],
    ["POST", "/projects/:id/move", ["moved"]],
    ["GET", "/projects/:id/members", ["members"]],
    ["POST", "/projects/:id/members", ["ok"]],
    ["DELETE", "/projects/:id/members", ["ok"]],
    ["GET", "/projects/:id/page-data", ["project"]],
  ]),
  ...rows("Initiatives", [
    ["GET", "/initiatives", ["initiatives"]],
    ["POST", "/initiatives", ["initiative"]],
    ["PATCH", "/initiatives/:id", ["initiative"]],
    ["GET", "/initiatives/:id/page-data", ["initiative"]],
    ["POST", "/initiatives/:id/move", ["moved"]],
  ]),
  ...rows("Cycles", [
    ["GET", "/cycles", ["cycles"]],
    ["POST", "/cycles", ["cycle", "rolledOver"]],
    ["PATCH", "/cycles/:id", ["cycle"]],
    ["DELETE", "/cycles/:id", ["deleted"]],
  ]),
  ...rows("Labels", [
    ["GET", "/labels", ["labels"]],
    ["POST", "/labels", ["label"]],
    ["PATCH", "/labels/:id", ["label"]],
    ["DELETE", "/labels/:id", ["deleted"]],
    ["POST", "/labels/:id/merge", ["label", "moved", "collapsed"]],
  ]),
  ...rows("Documents", [
    ["GET", "/documents", ["documents"]],
    ["POST", "/documents", ["document"]],
    ["GET", "/documents/:id", ["document"]],
    ["PATCH", "/documents/:id", ["document"]],
    ["DELETE", "/documents/:id", ["ok"]],
  ]),
  ...rows("Updates", [
    ["GET", "/updates", ["updates"]],
    ["POST", "/updates", ["update"]],
    ["GET", "/updates/candidates", ["since", "issues"]],
  ]),
  ...rows("Views", [
    ["GET", "/views", ["views"]],
    ["POST", "/views", ["view"]],
    ["PATCH", "/views/:id", ["ok"]],
    ["DELETE", "/views/:id", ["ok"]],
    ["GET", "/view-defaults", ["defaults"]],
    ["PUT", "/view-defaults", ["default"]],
    ["DELETE", "/view-defaults", ["ok"]],
  ]),
  ...rows("My work, events, development", [
    ["GET", "/my/digest", ["events"]],
    ["GET", "/events", []],
    ["POST", "/dev/reseed", ["workspace", "teamKey", "apiKey"]],
  ]),
];
