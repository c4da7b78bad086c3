import type { EntityManager } from "@mikro-orm/postgresql";
import pg from "pg";
import { FILL_LABEL_POSTINGS } from "../src/db/functions/issue-label-postings.js";
import { bootstrapWorkspace } from "../src/modules/dev/bootstrap.js";
import { SEARCH_RECENT_ROWS } from "../src/modules/issues/list/search-recent.query.js";
import { insertTeam } from "../src/modules/teams/team.service.js";

export interface BenchSizes {
  issues: number;
  teams: number;
  users: number;
  labels: number;
  /** Cycles per team; the one before the last is current. */
  cycles: number;
}

export const DEFAULT_SIZES: BenchSizes = { issues: 100_000, teams: 20, users: 40, labels: 30, cycles: 8 };

export interface Seeded {
  workspaceId: string;
  workspaceSlug: string;
  adminId: string;
  adminToken: string;
  teamKeys: string[];
  /** A spread of existing identifiers for the read cases. */
  identifiers: string[];
  counts: Record<string, number>;
  seconds: number;
}

/** Words titles and descriptions are drawn from, so full-text search has realistic hits and misses. */
const WORDS = `login page crash submit export report search index query performance slow timeout cache memory
leak database migration schema backup restore deploy release build pipeline test flaky coverage docs onboarding
guide api endpoint token auth session cookie password reset email notification webhook retry queue worker job
scheduler cron billing invoice payment refund checkout cart product catalog image upload thumbnail storage bucket
permission role admin member guest team project cycle label filter sort view board column drag drop keyboard
shortcut mobile layout dark mode theme color font icon button modal dialog tooltip form validation error message
toast banner settings profile avatar timezone locale translation accessibility contrast screen reader focus
analytics metrics dashboard chart graph latency throughput cpu disk network dns certificate proxy gateway
firewall audit log trace alert incident outage rollback hotfix refactor cleanup dependency upgrade security`
  .split(/\s+/)
  .filter(Boolean);

/** Adds the newest `$2` issues of workspace `$1` to the recent issues of search (`issue_search_recent`). */
export const FILL_SEARCH_RECENT = `
  insert into issue_search_recent (issue_id, workspace_id, team_id, number, updated_at, terms)
  select id, workspace_id, team_id, number, updated_at, tracker_search_terms(workspace_id, search_vector)
    from issues
   where workspace_id = $1
     and updated_at >= coalesce((select updated_at from issues where workspace_id = $1
                                  order by updated_at desc offset $2 limit 1), '-infinity')
  on conflict (issue_id) do nothing`;

/**
 * A workspace of `sizes.issues` issues across `sizes.teams` teams, with labels, relations, comments, cycles,
 * projects and due dates spread around today, written by set-based SQL (generate_series) in seconds.
 * `em` provides the workspace, admin key and teams the way the product makes them; the bulk goes through a
 * plain pg connection.
 */
export async function seedBench(
  em: EntityManager,
  databaseUrl: string,
  sizes = DEFAULT_SIZES,
): Promise<Seeded> {
  const started = Date.now();
  const { boot, ws, teamKeys, teamIds, run } = await benchWorkspace(em, {
    label: "Bench",
    admin: "Bench Admin",
    teamPrefix: "B",
    teams: sizes.teams,
  });

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const q = (text: string, params: unknown[] = []) => client.query(text, params);
  try {
    await q("begin");
    await q("select setseed(0.42)");
    // The full-text indexes (of every issue and of the recent ones) are built once after the load, as for
    // any bulk load: maintained row by row, every insert and every later update of a loaded issue (states,
    // labels, blockers) adds its ~25 lexemes to them.
    const searchIndexes = (
      await q(
        "select indexname, indexdef from pg_indexes where schemaname = current_schema() and indexname = any($1)",
        [["issues_search_vector_index", "issue_search_recent_terms_index"]],
      )
    ).rows as { indexname: string; indexdef: string }[];
    for (const index of searchIndexes) await q(`drop index ${index.indexname}`);
    // So are the other indexes of `issues` (all but those of constraints): maintained row by row, a
    // million random inserts into each of ~20 indexes outgrew the shared buffers and took most of the
    // seed; each is built once, sorted, after the load.
    const issueIndexes = (
      await q(
        `select i.indexname, i.indexdef from pg_indexes i
          where i.schemaname = current_schema() and i.tablename = 'issues' and i.indexname <> all($1)
            and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
        [searchIndexes.map((index) => index.indexname)],
      )
    ).rows as { indexname: string; indexdef: string }[];
    for (const index of issueIndexes) await q(`drop index ${index.indexname}`);
    // The recent issues of search are filled once after the load too, instead of by the trigger per write.
    await q("alter table issues disable trigger issues_search_recent");
    // So are the label postings, from the issues as they end up.
    await q("alter table issues disable trigger issues_label_postings");
    await q(
      `create temp table bench_teams on commit drop as
         select (ord - 1)::int as idx, id from unnest($1::uuid[]) with ordinality as t(id, ord)`,
      [teamIds],
    );
    await q(
      `create temp table bench_states on commit drop as
         select bt.idx as team_idx, s.position as pos, s.id, s.type
           from bench_teams bt join workflow_states s on s.team_id = bt.id`,
    );
    // Members: users and memberships; each user joins three teams.
    await q(
      `create temp table bench_users on commit drop as
         select (n - 1) as idx, gen_random_uuid() as id from generate_series(1, $1::int) n`,
      [sizes.users],
    );
    await q(
      `insert into users (id, email, name, created_at)
       select id, 'bench-user-' || idx || '-' || $1 || '@example.com', 'User ' || chr(65 + idx % 26) || idx, now()
         from bench_users`,
      [run],
    );
    await q(
      `insert into memberships (id, workspace_id, user_id, role, created_at)
       select gen_random_uuid(), $1, id, 'member', now() from bench_users`,
      [ws],
    );
    await q(
      `insert into team_members (id, team_id, user_id, created_at)
       select gen_random_uuid(), bt.id, bu.id, now()
         from bench_users bu cross join generate_series(0, 2) k
         join bench_teams bt on bt.idx = (bu.idx + k * 7) % $1`,
      [sizes.teams],
    );
    // Two projects per team.
    await q(
      `create temp table bench_projects on commit drop as
         select (n - 1) as idx, gen_random_uuid() as id from generate_series(1, $1::int * 2) n`,
      [sizes.teams],
    );
    await q(
      `insert into projects (id, workspace_id, name, description, status, lead_id, start_date, target_date,
                             created_at, updated_at)
       select bp.id, $1, 'Project ' || bp.idx, 'Bench project', (array['planned', 'started', 'backlog'])[1 + bp.idx % 3],
              null, current_date - 30, current_date + (bp.idx % 60), now() - interval '60 days', now()
         from bench_projects bp`,
      [ws],
    );
    await q(
      `insert into project_teams (project_id, team_id)
       select bp.id, bt.id from bench_projects bp join bench_teams bt on bt.idx = bp.idx / 2`,
    );
    // Two-week cycles; cycle (cycles - 1) contains today.
    await q(
      `create temp table bench_cycles on commit drop as
         select bt.idx as team_idx, c as number, gen_random_uuid() as id,
                now() - interval '7 days' + (c - ($1::int - 1)) * interval '14 days' as starts_at
           from bench_teams bt cross join generate_series(1, $1::int) c`,
      [sizes.cycles],
    );
    await q(
      `insert into cycles (id, team_id, number, name, starts_at, ends_at, created_at)
       select bc.id, bt.id, bc.number, null, bc.starts_at, bc.starts_at + interval '14 days', now()
         from bench_cycles bc join bench_teams bt on bt.idx = bc.team_idx`,
    );
    await q(
      `insert into cycle_counters (team_id, last_number) select id, $1 from bench_teams
         on conflict (team_id) do update set last_number = excluded.last_number`,
      [sizes.cycles],
    );
    await q(
      `insert into labels (id, workspace_id, name, color, description, created_at, updated_at)
       select gen_random_uuid(), $1, (array['bug', 'feature', 'chore', 'docs', 'design', 'backend', 'frontend',
              'infra', 'security', 'performance'])[1 + (n - 1) % 10] || case when n > 10 then '-' || n else '' end,
              '#5e6ad2', null, now(), now()
         from generate_series(1, $2::int) n`,
      [ws, sizes.labels],
    );

    // The issues: drawn first into a temp table (so a sub-issue can name its parent's id), then one
    // set-based insert that writes each row once, as it ends up: completion time, parent and label ids
    // included. Writing those afterwards (an update of 40%, 5% and 70% of the rows) rewrote every such row
    // and all of its index entries, most of the seed's time at 1,000,000 issues (bench/README.md).
    // Distributions: states 20% backlog, 20% todo, 15% in progress, 5% in review, 33% done, 7% canceled;
    // 45% without due date, the rest within +-60 days of today; each issue draws a label twice, each draw
    // kept with probability 0.7 (~1.4 labels an issue, duplicates dropped); 5% are sub-issues of the
    // previous issue of their team.
    await q(
      `create temp table bench_issues on commit drop as
       with labels as (select array_agg(id) as a from labels where workspace_id = $1)
       select n, n % $2::int as ti, n / $2::int + 1 as num, gen_random_uuid() as id, random() as r_state,
              random() as r_due, random() as r_assignee, random() as r_project, random() as r_cycle,
              random() as r_est, created, created + random() * (now() - created) as updated,
              coalesce(array(select distinct labels.a[1 + floor(random() * cardinality(labels.a))::int]
                               from generate_series(1, 2 + 0 * n) k where random() < 0.7), '{}') as label_ids
         from (select n, now() - random() * interval '365 days' as created
                 from generate_series(0, $3::int - 1) n) g
              cross join labels`,
      [ws, sizes.teams, sizes.issues],
    );
    // label_ids in the order the mirror trigger keeps them (issue-label-ids.ts): by id.
    await q(
      "update bench_issues set label_ids = array(select x from unnest(label_ids) x order by x) where cardinality(label_ids) > 1",
    );
    await q(
      `insert into issues (id, workspace_id, team_id, number, title, description, priority, estimate, due_date,
                           state_id, state_type, assignee_id, creator_id, project_id, cycle_id, parent_id,
                           created_at, updated_at, completed_at, label_ids)
       with words as (select $3::text[] as w),
            users as (select array_agg(id order by idx) as a from bench_users)
       select g.id, $1, bt.id, g.num,
              initcap(array_to_string(array(select words.w[1 + floor(random() * cardinality(words.w))::int]
                                              from generate_series(1, 3 + g.n % 5)), ' ')),
              case when g.n % 2 = 0 then array_to_string(array(
                     select words.w[1 + floor(random() * cardinality(words.w))::int]
                       from generate_series(1, 10 + g.n % 20)), ' ') end,
              floor(random() * 5)::smallint,
              case when g.r_est < 0.3 then null else (array[0, 1, 2, 3, 5, 8])[1 + floor(random() * 6)::int] end,
              case when g.r_due < 0.45 then null else current_date + (floor(g.r_due * 1000)::int % 121 - 60) end,
              s.id, s.type,
              case when g.r_assignee < 0.2 then null else users.a[1 + floor(random() * cardinality(users.a))::int] end,
              users.a[1 + floor(random() * cardinality(users.a))::int],
              case when g.r_project < 0.5 then bp.id end,
              case when g.r_cycle < 0.4 then bc.id end,
              parent.id,
              g.created,
              g.updated,
              case when s.type in ('completed', 'canceled') then g.updated end,
              g.label_ids
         from bench_issues g cross join words cross join users
         join bench_teams bt on bt.idx = g.ti
         join bench_states s on s.team_idx = g.ti and s.pos = case
              when g.r_state < 0.20 then 0 when g.r_state < 0.40 then 1 when g.r_state < 0.55 then 2
              when g.r_state < 0.60 then 3 when g.r_state < 0.93 then 4 else 5 end
         join bench_projects bp on bp.idx = g.ti * 2 + g.num % 2
         join bench_cycles bc on bc.team_idx = g.ti and bc.number = 1 + g.num % $4::int
         left join bench_issues parent on g.num % 20 = 3 and parent.n = g.n - $2::int`,
      [ws, sizes.teams, WORDS, sizes.cycles],
    );
    await q(
      `update teams t set issue_counter = m.n from (select team_id, max(number) n from issues group by team_id) m
        where m.team_id = t.id and t.workspace_id = $1`,
      [ws],
    );
    // The links the label ids mirror, without the trigger that would rewrite every issue's label_ids.
    await q("alter table issue_labels disable trigger issue_labels_ids_insert");
    await q(
      `insert into issue_labels (issue_id, label_id)
       select g.id, l.id from bench_issues g cross join unnest(g.label_ids) l(id)`,
    );
    await q("alter table issue_labels enable trigger issue_labels_ids_insert");
    // Relations between random pairs: 70% blocks, the rest related or duplicate.
    await q(
      `with x as (select id, row_number() over (order by random()) rn from issues where workspace_id = $1)
       insert into issue_relations (id, workspace_id, type, issue_id, related_issue_id, creator_id, created_at)
       select gen_random_uuid(), $1, case when a.rn % 10 < 7 then 'blocks' when a.rn % 10 < 9 then 'related'
              else 'duplicate' end, a.id, b.id, null, now()
         from x a join x b on b.rn = a.rn + 1
        where a.rn % 2 = 1 and a.rn <= $2::int * 2
       on conflict do nothing`,
      [ws, Math.round(sizes.issues / 10)],
    );
    await q(
      `insert into comments (id, issue_id, author_id, body, edited, created_at, updated_at)
       select gen_random_uuid(), i.id, u.a[1 + floor(random() * cardinality(u.a))::int],
              'Comment ' || k || ' on this issue: looks good, one more thing to check.', false,
              i.created_at + k * interval '1 hour', i.created_at + k * interval '1 hour'
         from issues i cross join generate_series(1, 3) k
              cross join (select array_agg(id) a from bench_users) u
        where i.workspace_id = $1 and random() < 0.5`,
      [ws],
    );
    // Only the newest issues: the bench prunes the recent issues to SEARCH_RECENT_ROWS after the load
    // (run.ts), whose cut these hold; computing the terms of every issue was minutes at 1,000,000.
    await q(FILL_SEARCH_RECENT, [ws, 3 * SEARCH_RECENT_ROWS]);
    await q("alter table issues enable trigger issues_search_recent");
    await q(`${FILL_LABEL_POSTINGS} where i.workspace_id = $1`, [ws]);
    await q("alter table issues enable trigger issues_label_postings");
    for (const index of [...issueIndexes, ...searchIndexes]) await q(index.indexdef);
    await q("commit");
    await q("analyze");

    const counts: Record<string, number> = {};
    for (const [name, sql] of Object.entries({
      issues: "select count(*) from issues where workspace_id = $1",
      issueLabels:
        "select count(*) from issue_labels il join issues i on i.id = il.issue_id where i.workspace_id = $1",
      relations: "select count(*) from issue_relations where workspace_id = $1",
      comments:
        "select count(*) from comments c join issues i on i.id = c.issue_id where i.workspace_id = $1",
      cycles: "select count(*) from cycles c join teams t on t.id = c.team_id where t.workspace_id = $1",
      projects: "select count(*) from projects where workspace_id = $1",
      labels: "select count(*) from labels where workspace_id = $1",
      users: "select count(*) from memberships where workspace_id = $1",
    }))
      counts[name] = Number((await q(sql, [ws])).rows[0].count);
    const sample = await q(
      `select t.key || '-' || i.number as identifier from issues i join teams t on t.id = i.team_id
        where i.workspace_id = $1 and i.number % 97 = 1 order by i.team_id, i.number`,
      [ws],
    );
    return {
      workspaceId: ws,
      workspaceSlug: boot.workspace.slug,
      adminId: boot.user.id,
      adminToken: boot.apiKey.token,
      teamKeys,
      identifiers: sample.rows.map((r: { identifier: string }) => r.identifier),
      counts,
      seconds: (Date.now() - started) / 1000,
    };
  } catch (err) {
    await q("rollback").catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

/**
 * A fresh workspace (unique per run) with its admin and `teams` teams keyed `<prefix>01`, `<prefix>02`, …,
 * made through the same code as the product; both seeds start from it.
 */
export async function benchWorkspace(
  em: EntityManager,
  o: { label: string; admin: string; teamPrefix: string; teams: number },
) {
  const run = Date.now().toString(36);
  const boot = await bootstrapWorkspace(em, {
    workspaceName: `${o.label} ${run}`,
    email: `${o.label.toLowerCase().replace(/\W+/g, "-")}-${run}@example.com`,
    name: o.admin,
  });
  const ws = boot.workspace.id;
  const teamKeys = Array.from(
    { length: o.teams },
    (_, i) => `${o.teamPrefix}${String(i + 1).padStart(2, "0")}`,
  );
  const teamIds: string[] = [];
  await em.transactional(async (tem) => {
    for (const key of teamKeys)
      teamIds.push((await insertTeam(tem, ws, { key, name: `${o.label} team ${key}` }, boot.user.id)).id);
  });
  return { boot, ws, teamKeys, teamIds, run };
}
