import { idArrayMirror } from "./id-array-mirror.js";

/**
 * `projects.team_ids`: the project's team ids, mirroring its `project_teams` rows. A project list decides
 * who sees a project from this array and shows the page's teams from it. Created by migration
 * `project_team_ids`.
 */
export const PROJECT_TEAM_IDS = idArrayMirror({
  table: "projects",
  alias: "p",
  column: "team_ids",
  links: "project_teams",
  linkAlias: "pt",
  owner: "project_id",
  id: "team_id",
  fn: "project_team_ids",
  trigger: "project_teams_ids",
  touched: "touched_teams",
});
