import type { Command } from "../command.js";
import * as api from "./api/api.js";
import * as invitesCreate from "./invites/create.js";
import * as invitesList from "./invites/list.js";
import * as issuesComment from "./issues/comment.js";
import * as issuesCreate from "./issues/create.js";
import * as issuesEdit from "./issues/edit.js";
import * as issuesList from "./issues/list.js";
import * as issuesView from "./issues/view.js";
import * as keysCreate from "./keys/create.js";
import * as keysDelete from "./keys/delete.js";
import * as keysList from "./keys/list.js";
import * as teamsList from "./teams/list.js";
import * as usersList from "./users/list.js";
import * as workspacesList from "./workspaces/list.js";
import * as workspacesUse from "./workspaces/use.js";

/** Every command, in the order `tracker --help` lists them. */
export const commands = [
  issuesList,
  issuesView,
  issuesCreate,
  issuesEdit,
  issuesComment,
  teamsList,
  workspacesList,
  workspacesUse,
  usersList,
  keysList,
  keysCreate,
  keysDelete,
  invitesList,
  invitesCreate,
  api,
] as unknown as Command[];

/** What each noun is about, for the top-level help. */
export const nouns: Record<string, string> = {
  issues: "List, view, create and edit issues",
  teams: "List teams and their workflow states",
  workspaces: "List workspaces and choose the active one",
  users: "List the workspace's members",
  keys: "Manage your API keys",
  invites: "Invite people to the workspace",
  api: "Make an authenticated API request",
};
