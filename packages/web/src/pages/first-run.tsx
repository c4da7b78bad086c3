import { useApp } from "../app-context.js";
import { Link, navigate, useTitle } from "../router.js";
import { useData } from "../store.js";
import { InviteForm } from "./settings-people.js";
import { CreateTeamForm, TeamDirectory } from "./settings-teams.js";

/**
 * The workspace's home while the person is in no team. An admin is walked through making the first team,
 * then offered to invite people (`/<ws>/welcome/<key>`); anyone else sees the teams they may join (the
 * contract's `listAllTeams`), and a join opens that team's board.
 */
export function FirstRunPage() {
  const { tracker, ws, me } = useApp();
  useTitle("Welcome");
  const all = useData("teams-all", () => tracker.teams.listAll());
  if (!me) return <p className="muted">Loading…</p>;
  if (me.role === "admin") {
    return (
      <div className="page first-run">
        <h1>Create your first team</h1>
        <p className="muted">
          A team holds issues, their board and their workflow: Engineering, Design, Support. You can add more
          teams and change these settings later, in Settings.
        </p>
        <CreateTeamForm
          submitLabel="Create team"
          onCreated={(team) => navigate(`/${ws}/welcome/${encodeURIComponent(team.key)}`)}
        />
        {!!all.data?.length && (
          <>
            <h2>Or join a team</h2>
            <TeamDirectory onJoined={(key) => navigate(`/${ws}/team/${encodeURIComponent(key)}/board`)} />
          </>
        )}
      </div>
    );
  }
  return (
    <div className="page first-run">
      <h1>Join a team</h1>
      <p className="muted">Pick the teams you work with: their boards open in the sidebar.</p>
      <TeamDirectory onJoined={(key) => navigate(`/${ws}/team/${encodeURIComponent(key)}/board`)} />
    </div>
  );
}

/** The first run's second step: the new team is ready; invite people to it, or go to its board. */
export function WelcomeInvitePage({ teamKey }: { teamKey: string }) {
  const { ws, teams } = useApp();
  useTitle("Invite people");
  const team = teams.find((t) => t.key === teamKey);
  return (
    <div className="page first-run">
      <h1>Invite your team</h1>
      <p className="muted">
        {team ? `${team.name} (${team.key}) is ready.` : "The team is ready."} Invite the people who work in
        it: each gets a link to choose a password with, then joins the team from the team directory.
      </p>
      <InviteForm />
      <p>
        <Link to={`/${ws}/team/${encodeURIComponent(teamKey)}/board`} className="button-link primary">
          Go to the board
        </Link>{" "}
        <span className="muted">
          or later, in <Link to={`/${ws}/settings/people`}>Settings, People</Link>.
        </span>
      </p>
    </div>
  );
}
