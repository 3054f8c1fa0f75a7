import { createTestDatabase } from '../setup/test-database.js';
import { startCluster, type AppInstance, type Cluster, type HttpResult } from '../helpers/processes.js';
import { startPartnerStandIn, type PartnerStandIn } from '../helpers/platform-standins.js';
import {
  asAdmin,
  asUser,
  countBy,
  expectOk,
  givenCommunity,
  givenResourceType,
  grant,
  ledgerInvariantViolations,
  pool,
  register,
  report,
  scale,
  type User,
} from './support.js';

const PLAYERS = scale(40, 200);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Part 10: kill -9 during quest claims and during a partner's check (issue 47). Players claim a
 * quest on both instances while one is killed and restarted; a player's claim waits on a slow
 * partner when its instance is killed. Afterwards every player claims again: each player has
 * exactly one completion and one credit of its reward, every claim answered `created: true` is
 * there, and the ledger's invariants hold.
 */
describe('crash: kill -9 during quest claims and a partner call', () => {
  let c: Cluster;
  let partner: PartnerStandIn;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    partner = await startPartnerStandIn();
    c = await startCluster(createTestDatabase, 2, { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', QUEST_CLAIMS_PER_MINUTE: '100000' });
  }, 120_000);
  afterAll(async () => {
    report('10. crash during quest claims', figures);
    await c?.close();
    await partner?.close();
  });

  const quest = async (app: AppInstance, communityId: string, rewardTypeId: string, task: Record<string, unknown>) => {
    const q = expectOk(
      await app.call('POST', '/v1/admin/quests', {
        headers: asAdmin(c.tenant),
        body: {
          communityId,
          name: `Crash quest ${Date.now()}`,
          type: 'play',
          rewards: [{ type: 'resource', resourceTypeId: rewardTypeId, amount: 7 }],
        },
      }),
      201,
      'quest',
    ).body as { id: string };
    expectOk(
      await app.call('POST', `/v1/admin/quests/${q.id}/tasks`, { headers: asAdmin(c.tenant), body: { title: 'Task', ...task } }),
      201,
      'task',
    );
    return q.id;
  };
  const claim = (app: AppInstance, u: User, questId: string) =>
    app.call('POST', `/v1/quests/${questId}/claim`, { headers: asUser(u), timeoutMs: 20_000 });

  it('credits every player once, keeps every acknowledged completion', async () => {
    const [victim, survivor] = c.apps;
    const community = await givenCommunity(survivor, c.tenant);
    const xp = await givenResourceType(survivor, c.tenant, community.id);
    const reward = await givenResourceType(survivor, c.tenant, community.id);
    const questId = await quest(survivor, community.id, reward.id, {
      kind: 'resource',
      resource: { resourceTypeId: xp.id, measure: 'earned', atLeast: 1 },
    });
    const players: User[] = await pool(4, PLAYERS, () => register(survivor, c.tenant));
    await pool(8, players.length, (i) => grant(survivor, c.tenant, players[i].userId, xp.id, 1));

    const answers: { player: number; result?: HttpResult; error?: string }[] = [];
    const load = pool(16, players.length * 2, async (i) => {
      // Each player claims twice, once on each instance, both in flight around the kill.
      const player = Math.floor(i / 2);
      const app = i % 2 ? victim : survivor;
      try {
        answers.push({ player, result: await claim(app, players[player], questId) });
      } catch (err) {
        answers.push({ player, error: (err as Error).message });
      }
    });
    await sleep(scale(400, 1_000));
    const killedAfter = answers.length;
    await victim.kill('SIGKILL');
    await load;
    await victim.restart();

    // Every player claims again: a completion the crash cut short is made now, once.
    await pool(8, players.length, async (i) => expectOk(await claim(i % 2 ? victim : survivor, players[i], questId), 200, 'claim again'));
    const rows: { user_id: string; n: number }[] = (
      await c.sql.query('SELECT user_id, count(*)::int AS n FROM quest_completions WHERE quest_id = $1 GROUP BY user_id', [questId])
    ).rows;
    const credits: { user_id: string; n: number; total: string }[] = (
      await c.sql.query(
        "SELECT user_id, count(*)::int AS n, sum(delta)::text AS total FROM resource_ledger WHERE resource_type_id = $1 AND reason = 'quest_completion' GROUP BY user_id",
        [reward.id],
      )
    ).rows;
    expect(rows.length).toBe(players.length);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    expect(credits.length).toBe(players.length);
    expect(credits.every((r) => r.n === 1 && r.total === '7')).toBe(true);
    const acknowledged = answers.filter((a) => a.result?.status === 200 && a.result.body?.completion?.created === true);
    const completed = new Set(rows.map((r) => r.user_id));
    expect(acknowledged.filter((a) => !completed.has(players[a.player].userId))).toEqual([]);
    expect(answers.filter((a) => (a.result?.status ?? 0) >= 500)).toEqual([]);
    expect(await ledgerInvariantViolations(c.sql)).toMatchObject({ mismatched: 0, negative: 0 });
    figures.claimsUnderKill = {
      players: players.length,
      claims: answers.length,
      answeredBeforeKill: killedAfter,
      answers: countBy(answers, (a) => (a.result ? String(a.result.status) : 'no answer')),
      acknowledgedCreated: acknowledged.length,
      completionsPerPlayer: 1,
      creditsPerPlayer: 1,
    };
  }, 180_000);

  it('a claim waiting on a partner when its instance dies is credited once on the next claim', async () => {
    const [victim, survivor] = c.apps;
    const community = await givenCommunity(survivor, c.tenant);
    const reward = await givenResourceType(survivor, c.tenant, community.id);
    const questId = await quest(survivor, community.id, reward.id, { kind: 'partner', partner: { url: partner.url, timeoutMs: 5_000 } });
    const player = await register(survivor, c.tenant);
    let held = 0;
    partner.respond = () => {
      held++;
      return { status: 200, body: '{}', delayMs: 3_000 };
    };
    const pending = claim(victim, player, questId).catch((err: Error) => err.message);
    const deadline = Date.now() + 10_000;
    while (held === 0 && Date.now() < deadline) await sleep(20);
    expect(held).toBe(1);
    await victim.kill('SIGKILL');
    const cut = await pending;
    await victim.restart();
    partner.respond = () => ({ status: 200, body: '{}' });
    const after = expectOk(await claim(survivor, player, questId), 200, 'claim after the crash').body as {
      completion: { created: boolean };
    };
    expect(after.completion.created).toBe(true);
    const again = expectOk(await claim(victim, player, questId), 200, 'claim again').body as { completion: { created: boolean } };
    expect(again.completion.created).toBe(false);
    const credits = (
      await c.sql.query('SELECT count(*)::int AS n FROM resource_ledger WHERE resource_type_id = $1 AND user_id = $2', [
        reward.id,
        player.userId,
      ])
    ).rows[0].n as number;
    expect(credits).toBe(1);
    figures.partnerCallUnderKill = { cutClaimSaw: typeof cut === 'string' ? cut : `HTTP ${cut.status}`, creditsAfterRetry: credits };
  }, 60_000);
});
