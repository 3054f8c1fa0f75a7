import { BalanceAmountsSafe1795760000000 } from '../../migrations/1795760000000-BalanceAmountsSafe.js';
import type { EntityManager } from 'typeorm';
import { CommunitiesModule } from '../../src/communities/communities.module.js';
import { LedgerService, type LedgerResult } from '../../src/resources/ledger.service.js';
import { RankingService } from '../../src/resources/ranking.service.js';
import { ResourcesModule } from '../../src/resources/resources.module.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { UsersModule } from '../../src/users/users.module.js';
import { until } from '../helpers/until.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import {
  domainErrorOf,
  givenCommunity,
  givenResourceType,
  givenTenant,
  givenUser,
  inRolledBackTransaction,
  numbers,
  uniqueName,
} from './fixtures.js';

/**
 * LedgerService on the real database: the only writer of balances. Every case reads the rows back
 * (resource_ledger, resource_balances) rather than trusting the returned values alone.
 */
describe('LedgerService (medium: ResourcesModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let ledger: LedgerService;
  let tenantId: string;

  beforeAll(async () => {
    // A pool larger than the concurrent cases need in flight, so they really run at once.
    t = await createModuleTest({ imports: [ResourcesModule, CommunitiesModule, UsersModule, TenantsModule], env: { DB_POOL_SIZE: '12' } });
    ledger = t.get(LedgerService);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  /** A fresh user and resource type, so each case starts from a zero balance. */
  const given = async () => ({ userId: await givenUser(t, tenantId), resourceTypeId: await givenResourceType(t, tenantId) });
  const op = (ids: { userId: string; resourceTypeId: string }, amount: number, extra: Record<string, unknown> = {}) => ({
    tenantId,
    ...ids,
    amount,
    reason: 'medium-test',
    ...extra,
  });
  /** The balance row and the ledger's sums for the pair, from the database. */
  const stored = (ids: { userId: string; resourceTypeId: string }) =>
    numbers(
      t.dataSource,
      `SELECT
         (SELECT balance FROM resource_balances WHERE user_id = $1 AND resource_type_id = $2) AS balance,
         (SELECT earned FROM resource_balances WHERE user_id = $1 AND resource_type_id = $2) AS earned,
         (SELECT coalesce(sum(delta), 0) FROM resource_ledger WHERE user_id = $1 AND resource_type_id = $2) AS "sumDelta",
         (SELECT coalesce(sum(earned_delta), 0) FROM resource_ledger WHERE user_id = $1 AND resource_type_id = $2) AS "sumEarned",
         (SELECT count(*) FROM resource_ledger WHERE user_id = $1 AND resource_type_id = $2) AS entries`,
      [ids.userId, ids.resourceTypeId],
    );

  /** The rank counters (`level:bucket` → count) of these scores: each positive one counted once at each level (bucket > 0). */
  const countersOf = (scores: bigint[]) => {
    const counters = new Map<string, number>();
    for (const score of scores)
      for (let level = 0; level < 14; level++) {
        const bucket = score >> BigInt(4 * level);
        if (bucket > 0n) counters.set(`${level}:${bucket}`, (counters.get(`${level}:${bucket}`) ?? 0) + 1);
      }
    return counters;
  };
  /** The board's folded rank counters, once no delta of it is left to fold. */
  const foldedCounters = async (board: string) => {
    const folded = await until(
      async () => {
        // The timer's fold may hold the lock: fold again until no delta of this board is left.
        await t.get(RankingService).compact();
        return t.dataSource.query<{ key: string; count: number }[]>(
          `SELECT level || ':' || bucket AS key, count::int AS count FROM resource_rank_buckets WHERE resource_type_id = $1
           AND NOT EXISTS (SELECT 1 FROM resource_rank_bucket_deltas WHERE resource_type_id = $1)`,
          [board],
        );
      },
      (rows) => rows.length > 0,
    );
    return new Map(folded.map((r) => [r.key, r.count]));
  };

  it('credits raise balance and earned; a spend lowers the balance only; a revoke lowers both; Σ ledger = balance', async () => {
    const ids = await given();
    const m = t.dataSource.manager;
    const first = await ledger.credit(m, op(ids, 100));
    expect(first).toMatchObject({ delta: 100, earnedDelta: 100, balance: 100, earned: 100, replayed: false });
    await ledger.credit(m, op(ids, 50));
    const spend = await ledger.debit(m, op(ids, 30));
    expect(spend).toMatchObject({ delta: -30, earnedDelta: 0, balance: 120, earned: 150 });
    const revoke = await ledger.debit(m, op(ids, 20, { lowerEarned: true }));
    expect(revoke).toMatchObject({ delta: -20, earnedDelta: -20, balance: 100, earned: 130 });

    expect(await stored(ids)).toEqual({ balance: 100, earned: 130, sumDelta: 100, sumEarned: 130, entries: 4 });
    expect(await ledger.getBalance(m, tenantId, ids.userId, ids.resourceTypeId)).toEqual({ balance: 100, earned: 130 });
    const [row] = await t.dataSource.query('SELECT reason, created_at FROM resource_ledger WHERE id = $1', [first.entryId]);
    expect(row.reason).toBe('medium-test');
  });

  it('refuses a debit larger than the balance with insufficient_balance and writes nothing; the balance never goes negative', async () => {
    const ids = await given();
    await ledger.credit(t.dataSource.manager, op(ids, 10));
    expect(await domainErrorOf(ledger.debit(t.dataSource.manager, op(ids, 11)))).toBe('insufficient_balance');
    // Never credited at all: no balance row to take from.
    const other = await given();
    expect(await domainErrorOf(ledger.debit(t.dataSource.manager, op(other, 1)))).toBe('insufficient_balance');

    expect(await stored(ids)).toEqual({ balance: 10, earned: 10, sumDelta: 10, sumEarned: 10, entries: 1 });
    expect(await stored(other)).toEqual({ balance: 0, earned: 0, sumDelta: 0, sumEarned: 0, entries: 0 });
    // Exactly the whole balance may be spent.
    expect((await ledger.debit(t.dataSource.manager, op(ids, 10))).balance).toBe(0);
    expect(await stored(ids)).toMatchObject({ balance: 0, sumDelta: 0, entries: 2 });
  });

  it('replays an idempotency key: the first entry is returned, nothing is written again; another operation under the key is refused', async () => {
    const ids = await given();
    const key = uniqueName('key');
    const first = await ledger.credit(t.dataSource.manager, op(ids, 25, { idempotencyKey: key }));
    const again = await ledger.credit(t.dataSource.manager, op(ids, 25, { idempotencyKey: key }));
    expect(again).toMatchObject({ entryId: first.entryId, replayed: true, balance: 25, earned: 25 });
    expect(await stored(ids)).toMatchObject({ balance: 25, entries: 1 });

    // Same key, another amount, direction or user: 409 idempotency_key_reused, nothing written.
    const someoneElse = { ...ids, userId: await givenUser(t, tenantId) };
    expect(await domainErrorOf(ledger.credit(t.dataSource.manager, op(ids, 26, { idempotencyKey: key })))).toBe('idempotency_key_reused');
    expect(await domainErrorOf(ledger.debit(t.dataSource.manager, op(ids, 25, { idempotencyKey: key })))).toBe('idempotency_key_reused');
    expect(await domainErrorOf(ledger.credit(t.dataSource.manager, op(someoneElse, 25, { idempotencyKey: key })))).toBe(
      'idempotency_key_reused',
    );
    expect(await stored(ids)).toMatchObject({ balance: 25, entries: 1 });
    expect(await stored(someoneElse)).toMatchObject({ balance: 0, entries: 0 });
  });

  it('applies one of many concurrent operations with the same idempotency key; the others are replays of it', async () => {
    const ids = await given();
    const key = uniqueName('key');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => ledger.credit(t.dataSource.manager, op(ids, 7, { idempotencyKey: key }))),
    );
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
    expect(await stored(ids)).toEqual({ balance: 7, earned: 7, sumDelta: 7, sumEarned: 7, entries: 1 });
  });

  it('cannot be overspent by concurrent debits: exactly as many succeed as the balance covers', async () => {
    const ids = await given();
    await ledger.credit(t.dataSource.manager, op(ids, 100));
    const outcomes = await Promise.all(
      Array.from({ length: 25 }, () =>
        ledger.debit(t.dataSource.manager, op(ids, 7)).then(
          (r: LedgerResult) => r,
          (e: unknown) => domainErrorOf(Promise.reject(e as Error)),
        ),
      ),
    );
    const succeeded = outcomes.filter((o): o is LedgerResult => typeof o !== 'string');
    const refused = outcomes.filter((o) => typeof o === 'string');
    expect(succeeded).toHaveLength(14); // 14 * 7 = 98 <= 100 < 15 * 7
    expect(new Set(refused)).toEqual(new Set(['insufficient_balance']));
    // Each success saw its own balance: all different, every one >= 0.
    expect(new Set(succeeded.map((r) => r.balance)).size).toBe(14);
    expect(Math.min(...succeeded.map((r) => r.balance))).toBe(2);
    expect(await stored(ids)).toEqual({ balance: 2, earned: 100, sumDelta: 2, sumEarned: 100, entries: 15 });
  });

  it("runs inside the caller's transaction: a refused debit leaves it usable, and the caller's rollback undoes the credits", async () => {
    const ids = await given();
    await ledger.credit(t.dataSource.manager, op(ids, 5));
    await expect(
      t.dataSource.transaction(async (em) => {
        await ledger.credit(em, op(ids, 40));
        // Refused inside a savepoint: the transaction goes on.
        expect(await domainErrorOf(ledger.debit(em, op(ids, 1_000)))).toBe('insufficient_balance');
        expect((await ledger.debit(em, op(ids, 45))).balance).toBe(0);
        throw new Error('caller rolls back');
      }),
    ).rejects.toThrow('caller rolls back');
    expect(await stored(ids)).toEqual({ balance: 5, earned: 5, sumDelta: 5, sumEarned: 5, entries: 1 });

    await t.dataSource.transaction(async (em) => {
      await ledger.credit(em, op(ids, 40));
      await ledger.debit(em, op(ids, 45));
    });
    expect(await stored(ids)).toEqual({ balance: 0, earned: 45, sumDelta: 0, sumEarned: 45, entries: 3 });
  });

  it('refuses an unknown user, a resource type of another tenant, a total past 2^53 - 1 and a non-positive amount, writing nothing', async () => {
    const ids = await given();
    const otherTenant = await givenTenant(t);
    const foreignType = await givenResourceType(t, otherTenant);
    const m = t.dataSource.manager;
    expect(await domainErrorOf(ledger.credit(m, op({ ...ids, userId: '00000000-0000-4000-8000-000000000000' }, 1)))).toBe('user_not_found');
    expect(await domainErrorOf(ledger.credit(m, op({ ...ids, resourceTypeId: foreignType }, 1)))).toBe('resource_type_not_found');
    await ledger.credit(m, op(ids, Number.MAX_SAFE_INTEGER - 1));
    expect(await domainErrorOf(ledger.credit(m, op(ids, 2)))).toBe('amount_too_large');
    // A programming error, not a client's: thrown at once, before any SQL.
    for (const amount of [0, -3, 1.5, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => ledger.credit(m, op(ids, amount))).toThrow(/positive safe integer/);
      expect(() => ledger.debit(m, op(ids, amount))).toThrow(/positive safe integer/);
    }
    expect(await stored(ids)).toMatchObject({ balance: Number.MAX_SAFE_INTEGER - 1, entries: 1 });
    expect(await numbers(t.dataSource, 'SELECT count(*) AS n FROM resource_ledger WHERE resource_type_id = $1', [foreignType])).toEqual({
      n: 0,
    });
  });

  it('the migration BalanceAmountsSafe adds the amounts check and its down takes it away', async () => {
    await inRolledBackTransaction(t.dataSource, async (qr) => {
      const checks = async (): Promise<string[]> =>
        (
          (await qr.query(
            `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'ck_resource_balances_amounts_safe' AND convalidated`,
          )) as { def: string }[]
        ).map((r) => r.def);
      expect(await checks()).toEqual(["CHECK (((balance <= '9007199254740991'::bigint) AND (earned <= '9007199254740991'::bigint)))"]);
      const migration = new BalanceAmountsSafe1795760000000();
      await migration.down(qr);
      expect(await checks()).toEqual([]);
      await migration.up(qr);
      expect((await checks()).length).toBe(1);
    });
  });

  it('creditMany writes the entries and balances of one credit each, replays a batch as a no-op, and refuses a batch as a whole', async () => {
    const a = await given();
    const b = { ...a, userId: await givenUser(t, tenantId) };
    const key = uniqueName('k');
    const batch = {
      tenantId,
      resourceTypeId: a.resourceTypeId,
      reason: 'medium-test',
      credits: [
        { userId: a.userId, amount: 5, idempotencyKey: `${key}:1` },
        { userId: b.userId, amount: 7, idempotencyKey: `${key}:2` },
        { userId: a.userId, amount: 3, idempotencyKey: `${key}:3` },
      ],
    };
    expect(await ledger.creditMany(t.dataSource.manager, batch)).toEqual({ credited: 3, replayed: 0 });
    expect(await stored(a)).toEqual({ balance: 8, earned: 8, sumDelta: 8, sumEarned: 8, entries: 2 });
    expect(await stored(b)).toEqual({ balance: 7, earned: 7, sumDelta: 7, sumEarned: 7, entries: 1 });
    // Again: every key was used by the same credit, nothing changes.
    expect(await ledger.creditMany(t.dataSource.manager, batch)).toEqual({ credited: 0, replayed: 3 });
    expect(await stored(a)).toMatchObject({ balance: 8, entries: 2 });

    // One key used for another amount, or one unknown user: the whole batch writes nothing.
    const fresh = { userId: b.userId, amount: 1, idempotencyKey: `${key}:4` };
    const reused = { ...batch, credits: [fresh, { ...batch.credits[0], amount: 6 }] };
    expect(await domainErrorOf(ledger.creditMany(t.dataSource.manager, reused))).toBe('idempotency_key_reused');
    const stranger = {
      ...batch,
      credits: [fresh, { userId: '00000000-0000-4000-8000-000000000000', amount: 1, idempotencyKey: `${key}:5` }],
    };
    expect(await domainErrorOf(ledger.creditMany(t.dataSource.manager, stranger))).toBe('user_not_found');
    expect(await stored(b)).toEqual({ balance: 7, earned: 7, sumDelta: 7, sumEarned: 7, entries: 1 });
  });

  it('keeps the rank counters exact over random credits and revokes: the folded counters are those of the final scores', async () => {
    const resourceTypeId = await givenResourceType(t, tenantId);
    const users = await Promise.all(Array.from({ length: 12 }, () => givenUser(t, tenantId)));
    const m = t.dataSource.manager;
    // Amounts from 1 to 2^50, so moves cross buckets at low and high levels; a revoke now and then.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 60; i++) {
      const userId = users[next() % users.length];
      const amount = 1 + (next() % 2 ** (1 + (next() % 20))) * 2 ** (next() % 31);
      await ledger.credit(m, op({ userId, resourceTypeId }, amount));
      if (i % 7 === 6) await ledger.debit(m, op({ userId, resourceTypeId }, 1, { lowerEarned: true })).catch(() => undefined);
    }
    // What the counters must hold: every positive final score counted once at each level (bucket > 0).
    const scores = await t.dataSource.query<{ earned: string }[]>(
      'SELECT earned::text FROM resource_balances WHERE resource_type_id = $1',
      [resourceTypeId],
    );
    expect(await foldedCounters(resourceTypeId)).toEqual(countersOf(scores.map((s) => BigInt(s.earned))));
  });

  it("counts credits on the live seasons' boards in the credit's statement, on its own or in a transaction: the scores and folded counters of the sums", async () => {
    const communityId = await givenCommunity(t, tenantId);
    const resourceTypeId = await givenResourceType(t, tenantId, communityId);
    const users = await Promise.all(Array.from({ length: 6 }, () => givenUser(t, tenantId)));
    const m = t.dataSource.manager;
    // Earned before the seasons: a revoke can then take a season score below zero (unranked).
    for (const userId of users) await ledger.credit(m, op({ userId, resourceTypeId }, 1_000));
    const season = async (from: number, to: number) =>
      (
        await t.dataSource.query<{ id: string }[]>(
          `INSERT INTO seasons (tenant_id, community_id, resource_type_id, name, starts_at, ends_at, created_at)
           VALUES ($1, $2, $3, 'week', now() + make_interval(days => $4), now() + make_interval(days => $5), now()) RETURNING id`,
          [tenantId, communityId, resourceTypeId, from, to],
        )
      )[0].id;
    const live = [await season(-1, 6), await season(-2, 5)];
    const ended = await season(-10, -3);
    // Per player, what the live seasons took of them.
    const sums = new Map<string, number>();
    let fromBelowZero = 0;
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 30; i++) {
      const userId = users[i % users.length];
      const amount = 1 + (next() % 2 ** 20);
      // Every other credit inside a caller's transaction (a savepoint), the others on their own.
      const credit = (em: EntityManager) => ledger.credit(em, op({ userId, resourceTypeId }, amount));
      if (i % 2 === 0) await credit(m);
      else await t.dataSource.transaction(credit);
      if ((sums.get(userId) ?? 0) < 0) fromBelowZero++;
      sums.set(userId, (sums.get(userId) ?? 0) + amount);
      // Revokes: two players credited again after theirs, one not.
      if (i === 10 || i === 20 || i === 27) {
        const revoke = sums.get(userId)! + 500; // below zero on the season boards, not on the all-time one
        await ledger.debit(m, op({ userId, resourceTypeId }, revoke, { lowerEarned: true }));
        sums.set(userId, sums.get(userId)! - revoke);
      }
    }
    const scores = await t.dataSource.query<{ season_id: string; user_id: string; score: string }[]>(
      'SELECT season_id, user_id, score::text FROM season_scores WHERE season_id = ANY ($1::uuid[])',
      [[...live, ended]],
    );
    const expectedScores = live.flatMap((s) => [...sums].map(([u, sum]) => `${s}:${u}:${sum}`));
    expect(scores.map((r) => `${r.season_id}:${r.user_id}:${r.score}`).sort()).toEqual(expectedScores.sort());
    // Credits of players below zero on the boards were among them, and both kinds of ends.
    expect(fromBelowZero).toBeGreaterThan(0);
    expect([[...sums.values()].some((x) => x > 0), [...sums.values()].some((x) => x < 0)]).toEqual([true, true]);
    // Each live board's counters: every positive score counted once at each level (bucket > 0).
    for (const board of live) expect(await foldedCounters(board)).toEqual(countersOf([...sums.values()].map(BigInt)));
  });

  it('folds the rank counter deltas: a counter taken to zero is deleted, the others hold the exact counts', async () => {
    const ids = await given();
    const other = { ...ids, userId: await givenUser(t, tenantId) };
    const m = t.dataSource.manager;
    // 5 then 300: the counters of 5 go to zero; 300 (0x12c) and 7 keep one player each.
    await ledger.credit(m, op(ids, 5));
    await ledger.credit(m, op(other, 7));
    await ledger.credit(m, op(ids, 295));
    const counters = async () => {
      // The timer's fold may hold the lock: fold again until no delta of this board is left.
      await t.get(RankingService).compact();
      return t.dataSource.query<{ level: number; bucket: string; count: string }[]>(
        `SELECT level, bucket::text, count::text FROM resource_rank_buckets WHERE resource_type_id = $1
         AND NOT EXISTS (SELECT 1 FROM resource_rank_bucket_deltas WHERE resource_type_id = $1)
         ORDER BY level, bucket::bigint`,
        [ids.resourceTypeId],
      );
    };
    // Level 0 holds each score; level 1 the prefix >> 4 (7 >> 4 = 0 is never stored); level 2 >> 8.
    expect(await until(counters, (rows) => rows.length > 0)).toEqual([
      { level: 0, bucket: '7', count: '1' },
      { level: 0, bucket: '300', count: '1' },
      { level: 1, bucket: '18', count: '1' },
      { level: 2, bucket: '1', count: '1' },
    ]);
  });
});
