/**
 * Bulk seeding in SQL (generate_series, INSERT ... SELECT): a million users with balances, ledger
 * rows and rank counters takes well under a minute. Every balance gets one ledger row, so the
 * ledger invariant (Σ ledger = balance) holds on the seeded data too.
 */
import type pg from 'pg';
import { log, since } from './util.js';

export interface Tenant {
  id: string;
  apiKey: string;
  sharedSecret: string;
}

/** `count` users named bench_1..bench_count (handles unique per tenant). */
export async function seedUsers(db: pg.Client, tenantId: string, count: number): Promise<void> {
  const t0 = process.hrtime.bigint();
  await db.query(
    `INSERT INTO users (tenant_id, handle, handle_normalized, display_name)
     SELECT $1, 'bench_' || g, 'bench_' || g, 'Bench player ' || g FROM generate_series(1, $2::int) g`,
    [tenantId, count],
  );
  log(`  seeded ${count.toLocaleString('en')} users in ${(since(t0) / 1000).toFixed(1)} s`);
}

/**
 * Balances of a resource type for `count` users (skewed scores with many ties at the bottom, as a
 * real XP curve), one ledger row each, and the rank counters computed from them.
 */
export async function seedBalances(
  db: pg.Client,
  tenantId: string,
  resourceTypeId: string,
  count: number,
  maxScore = 1_000_000,
): Promise<void> {
  const t0 = process.hrtime.bigint();
  await db.query(
    `CREATE TEMP TABLE seed AS SELECT id AS user_id, (1 + floor(power(random(), 3) * $3))::bigint AS score,
       now() - random() * interval '30 days' AS at FROM users WHERE tenant_id = $1 LIMIT $2`,
    [tenantId, count, maxScore],
  );
  await db.query(
    `INSERT INTO resource_balances (resource_type_id, user_id, tenant_id, balance, earned, earned_at, updated_at)
     SELECT $1, user_id, $2, score, score, at, at FROM seed`,
    [resourceTypeId, tenantId],
  );
  await db.query(
    `INSERT INTO resource_ledger (tenant_id, resource_type_id, user_id, delta, earned_delta, reason, created_at)
     SELECT $2, $1, user_id, score, score, 'bench_seed', at FROM seed`,
    [resourceTypeId, tenantId],
  );
  await db.query(
    `INSERT INTO resource_rank_buckets (resource_type_id, level, bucket, count)
     SELECT $1, l, score >> (4 * l), COUNT(*) FROM seed, generate_series(0, 13) AS l WHERE (score >> (4 * l)) > 0 GROUP BY 2, 3`,
    [resourceTypeId],
  );
  await db.query('DROP TABLE seed');
  log(`  seeded ${count.toLocaleString('en')} balances, ledger rows and rank counters in ${(since(t0) / 1000).toFixed(1)} s`);
}

/**
 * A live weekly season of a resource type (started a day ago) with `count` ranked players: their
 * season scores (a smaller skewed curve than all-time XP: a week's earnings), and the season
 * board's rank counters (keyed by the season id). Returns the season id.
 */
export async function seedSeason(
  db: pg.Client,
  tenantId: string,
  communityId: string,
  resourceTypeId: string,
  count: number,
  maxScore = 20_000,
): Promise<string> {
  const t0 = process.hrtime.bigint();
  const day = 86_400_000;
  const now = Date.now();
  const s = await db.query<{ id: string }>(
    `INSERT INTO seasons (tenant_id, community_id, resource_type_id, name, starts_at, ends_at, created_at)
     VALUES ($1, $2, $3, 'Bench week', $4, $5, $4) RETURNING id`,
    [tenantId, communityId, resourceTypeId, new Date(now - day), new Date(now + 6 * day)],
  );
  const seasonId = s.rows[0].id;
  await db.query(
    `CREATE TEMP TABLE seed AS SELECT id AS user_id, (1 + floor(power(random(), 3) * $3))::bigint AS score,
       now() - random() * interval '1 day' AS at FROM users WHERE tenant_id = $1 LIMIT $2`,
    [tenantId, count, maxScore],
  );
  await db.query(
    `INSERT INTO season_scores (season_id, user_id, tenant_id, score, reached_at) SELECT $1, user_id, $2, score, at FROM seed`,
    [seasonId, tenantId],
  );
  await db.query(
    `INSERT INTO resource_rank_buckets (resource_type_id, level, bucket, count)
     SELECT $1, l, score >> (4 * l), COUNT(*) FROM seed, generate_series(0, 13) AS l WHERE (score >> (4 * l)) > 0 GROUP BY 2, 3`,
    [seasonId],
  );
  await db.query('DROP TABLE seed');
  log(`  seeded a season of ${count.toLocaleString('en')} ranked players and its rank counters in ${(since(t0) / 1000).toFixed(1)} s`);
  return seasonId;
}

export async function resourceType(
  db: pg.Client,
  tenantId: string,
  communityId: string,
  slug: string,
  kind: 'global' | 'scoped',
  questEventId: string | null = null,
): Promise<string> {
  const r = await db.query<{ id: string }>(
    `INSERT INTO resource_types (tenant_id, community_id, slug, name, kind, quest_event_id) VALUES ($1, $2, $3, $3, $4, $5) RETURNING id`,
    [tenantId, communityId, slug, kind, questEventId],
  );
  return r.rows[0].id;
}

export const EVENT_FEATURES = ['score-based', 'team', 'weekly', 'tournament', 'casual'];
export const QUEST_TAGS = ['daily', 'weekly', 'twitter', 'discord', 'raid', 'pvp', 'story', 'event', 'social', 'onboarding'];
export const QUEST_TYPES = ['social', 'gameplay', 'referral', 'quiz', 'visit'];

/**
 * `events` quest events in the community: a mix of upcoming, open, active and completed ones
 * (completed ones are state 'completed', so the completion worker has nothing to do), 1..3
 * features each; and `quests` quests, 2 tags each, 5 % featured, 1 % archived, every 20th one in
 * an event.
 */
export async function seedQuests(db: pg.Client, tenantId: string, communityId: string, events: number, quests: number): Promise<void> {
  const t0 = process.hrtime.bigint();
  await db.query(
    `INSERT INTO quest_events (tenant_id, community_id, slug, name, description, features, state,
       registration_starts_at, registration_ends_at, starts_at, ends_at, capacity, completed_at)
     SELECT $1, $2, 'event-' || g, 'Event ' || g, 'Seeded event ' || g,
       ARRAY[($3::text[])[1 + g % 5]] || CASE WHEN g % 3 = 0 THEN ARRAY[($3::text[])[1 + (g / 3 + 1) % 5]] ELSE '{}'::text[] END,
       CASE WHEN g % 4 = 0 THEN 'completed' ELSE 'published' END,
       t - interval '2 days', t + interval '1 day', t + interval '2 days', t + interval '9 days',
       CASE WHEN g % 2 = 0 THEN 1000 ELSE NULL END,
       CASE WHEN g % 4 = 0 THEN now() ELSE NULL END
     FROM (SELECT g, CASE WHEN g % 4 = 0 THEN now() - interval '30 days' - g * interval '1 minute'
                          ELSE now() + ((g % 7) - 4) * interval '1 day' + g * interval '1 minute' END AS t
           FROM generate_series(1, $4::int) g) s`,
    [tenantId, communityId, EVENT_FEATURES, events],
  );
  await db.query(
    `INSERT INTO quests (tenant_id, community_id, quest_event_id, name, description, type, status, tags, rewards, featured, template, created_at)
     SELECT $1, $2,
       CASE WHEN g % 20 = 0 AND $6::int > 0 THEN (SELECT e.id FROM quest_events e WHERE e.tenant_id = $1 AND e.slug = 'event-' || (1 + (g / 20) % $6::int)) END,
       'Quest ' || g, 'Do the thing number ' || g || CASE WHEN g % 50 = 0 THEN ' in the raid' ELSE '' END,
       ($3::text[])[1 + g % 5], CASE WHEN g % 100 = 0 THEN 'archived' ELSE 'active' END,
       ARRAY[($4::text[])[1 + g % 10], ($4::text[])[1 + (g / 10) % 10]],
       '[]'::jsonb, g % 20 = 0, g % 33 = 0, now() - g * interval '1 second'
     FROM generate_series(1, $5::int) g`,
    [tenantId, communityId, QUEST_TYPES, QUEST_TAGS, quests, events],
  );
  log(
    `  seeded ${events.toLocaleString('en')} quest events and ${quests.toLocaleString('en')} quests in ${(since(t0) / 1000).toFixed(1)} s`,
  );
}
