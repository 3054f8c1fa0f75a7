import { AsyncLocalStorage } from 'node:async_hooks';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { IntegrationsModule } from '../../src/integrations/integrations.module.js';
import { LedgerService } from '../../src/resources/ledger.service.js';
import type { Season } from '../../src/seasons/entities/season.entity.js';
import { SeasonCloser } from '../../src/seasons/season-closer.js';
import { SeasonsModule } from '../../src/seasons/seasons.module.js';
import { SeasonsRepository } from '../../src/seasons/seasons.repository.js';
import { SeasonsService } from '../../src/seasons/seasons.service.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { createModuleTest } from './harness.js';
import { givenCommunity, givenResourceType, givenTenant, uniqueName } from './fixtures.js';

/**
 * A measurement, not a test (its name is outside the medium project's `testMatch`, so `npm test`
 * never runs it): the close of a season of MEASURE_RANKED (100,000) players whose first
 * MEASURE_WINNERS (10,000) places win 1 gem, with SEASON_PAYOUT_BATCH = MEASURE_BATCH (250),
 * SEASON_FREEZE_CHUNK = MEASURE_CHUNK (10,000) and SEASON_CLOSE_REST_PERCENT = MEASURE_REST (50),
 * by a SeasonCloser on PostgreSQL. Prints the statements it ran (counted at the query runner), the time
 * of the freeze and of the payouts, and (unless MEASURE_PROBE=0) the latencies of live credits of
 * the same resource to random winners made throughout the close. docs/performance.md, season-close.
 *
 *     DATABASE_URL=... node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects medium \
 *       --testMatch '<rootDir>/test/medium/season-close.measure.ts'
 */
const WINNERS = Number(process.env.MEASURE_WINNERS ?? 10_000);
const RANKED = Number(process.env.MEASURE_RANKED ?? 100_000);

it('measures the close of a season', async () => {
  const t = await createModuleTest({
    imports: [SeasonsModule, IntegrationsModule, TenantsModule],
    env: {
      SEASON_WORKER_ENABLED: 'false',
      SEASON_PAYOUT_BATCH: process.env.MEASURE_BATCH ?? '250',
      SEASON_FREEZE_CHUNK: process.env.MEASURE_CHUNK ?? '10000',
      SEASON_CLOSE_REST_PERCENT: process.env.MEASURE_REST ?? '50',
    },
  });
  try {
    const tenantId = await givenTenant(t);
    const communityId = await givenCommunity(t, tenantId);
    const xp = await givenResourceType(t, tenantId, communityId);
    const gems = await givenResourceType(t, tenantId, communityId);
    // Bulk set-up of a million rows takes longer than the pool's statement timeout.
    const bulk = <T>(sql: string, params: unknown[]) =>
      t.dataSource.transaction(async (em) => {
        await em.query('SET LOCAL statement_timeout = 0');
        return em.query<T>(sql, params);
      });
    const players = (
      await bulk<{ id: string }[]>(
        `INSERT INTO users (tenant_id, handle, handle_normalized, display_name)
         SELECT $1, 'm_' || g, 'm_' || g, 'P' || g FROM generate_series(1, $2::int) g RETURNING id`,
        [tenantId, RANKED],
      )
    ).map((r) => r.id);
    const startsAt = new Date(t.clock.now().getTime() + 5000);
    const created = await t.get(SeasonsService).createSeason(tenantId, {
      communityId,
      resourceTypeId: xp,
      name: uniqueName('M'),
      startsAt,
      endsAt: new Date(startsAt.getTime() + 60_000),
      rewards: [{ fromRank: 1, toRank: WINNERS, type: 'resource', refId: gems, amount: 1 }],
    });
    await bulk(
      `INSERT INTO season_scores (season_id, user_id, tenant_id, score, reached_at)
       SELECT $1, u, $2, 10000000 - i, $3 FROM unnest($4::uuid[]) WITH ORDINALITY AS x(u, i)`,
      [created.id, tenantId, startsAt, players],
    );
    t.clock.advance(120_000);

    // The live credits' own statements are not the close's.
    const liveContext = new AsyncLocalStorage<true>();
    let statements = 0;
    t.dataSource.subscribers.push({ beforeQuery: () => void (liveContext.getStore() ? 0 : statements++) });
    const closer = t.get(SeasonCloser);
    const f0 = performance.now();
    await closer.freeze((await t.get(SeasonsRepository).findById(tenantId, created.id)) as Season);
    const freezeMs = Math.round(performance.now() - f0);
    const frozenStatements = statements;

    let closing = true;
    const live: number[] = [];
    const probe = liveContext.run(true, async () => {
      for (let k = 0; closing && process.env.MEASURE_PROBE !== '0'; k++) {
        const a = performance.now();
        await t.get(LedgerService).credit(t.dataSource.manager, {
          tenantId,
          userId: players[Math.floor(Math.random() * WINNERS)],
          resourceTypeId: gems,
          amount: 1,
          reason: 'live',
          idempotencyKey: `live-${k}`,
        });
        live.push(performance.now() - a);
      }
    });
    const p0 = performance.now();
    await closer.runOnce();
    const payMs = Math.round(performance.now() - p0);
    closing = false;
    await probe;
    live.sort((a, b) => a - b);
    const at = (q: number) => Math.round(live[Math.min(live.length - 1, Math.floor(q * live.length))] ?? 0);
    const [{ paid }] = await t.dataSource.query<{ paid: number }[]>(
      'SELECT count(*)::int AS paid FROM season_payouts WHERE season_id = $1',
      [created.id],
    );
    expect(paid).toBe(WINNERS);
    process.stdout.write(
      `${JSON.stringify({
        winners: WINNERS,
        ranked: RANKED,
        batch: t.config.SEASON_PAYOUT_BATCH,
        freezeMs,
        payMs,
        statements,
        perWinner: +((statements - frozenStatements) / WINNERS).toFixed(3),
        liveCredits: live.length,
        liveP50: at(0.5),
        liveP99: at(0.99),
        liveMax: at(1),
        load: loadavg()[0],
      })}\n`,
    );
  } finally {
    await t.close();
  }
}, 900_000);
