import { CommunitiesService } from '../../src/communities/communities.service.js';
import type { QuestEventDto } from '../../src/quest-events/dto/quest-event.dto.js';
import { QuestEventsService } from '../../src/quest-events/quest-events.service.js';
import { LedgerService } from '../../src/resources/ledger.service.js';
import { ResourcesService } from '../../src/resources/resources.service.js';
import { TenantsService } from '../../src/tenants/tenants.service.js';
import { UsersService } from '../../src/users/users.service.js';
import type { ModuleTest } from '../medium/harness.js';
import { communityInput, questEventInput, resourceTypeInput, tenantInput } from './inputs.js';
import { uniqueHandle, uniqueName } from './unique-name.js';

// The medium harness's factories: each entity made by its module's service on a ModuleTest
// (test/medium/harness.ts; the module must be among its imports), from the inputs the e2e
// factories send. They return ids.

const HOUR = 3_600_000;

/** A tenant made by TenantsService (TenantsModule among the imports). */
export async function givenTenant(t: ModuleTest): Promise<string> {
  return (await t.get(TenantsService).create(tenantInput())).id;
}

/** A user of the tenant made by UsersService (UsersModule among the imports). */
export async function givenUser(t: ModuleTest, tenantId: string, handle = uniqueHandle('u')): Promise<string> {
  return (await t.get(UsersService).create(t.dataSource.manager, { tenantId, handle })).id;
}

/** A community made by CommunitiesService (CommunitiesModule among the imports). */
export async function givenCommunity(t: ModuleTest, tenantId: string): Promise<string> {
  const input = communityInput();
  return (await t.get(CommunitiesService).create(tenantId, { slug: input.slug, name: input.slug })).id;
}

/** A global resource type of a new community, made by ResourcesService (ResourcesModule among the imports). */
export async function givenResourceType(t: ModuleTest, tenantId: string, communityId?: string): Promise<string> {
  const community = communityId ?? (await givenCommunity(t, tenantId));
  const type = await t.get(ResourcesService).createType(tenantId, { ...resourceTypeInput(community), name: 'Gems', kind: 'global' });
  return type.id;
}

/** Rows per bulk statement of `givenEventWithPlayers`: a million in one outruns the statement timeout. */
const BULK_ROWS = 50_000;

/**
 * A published quest event of a new scoped score type in the community (registration open, from
 * +1 h to +3 h on the test's clock) with `n` new users REGISTERED in it, made by bulk SQL (what is
 * under test is what follows: a completion, its standings). QuestEventsModule among the imports.
 */
export async function givenEventWithPlayers(
  t: ModuleTest,
  tenantId: string,
  communityId: string,
  n: number,
  rule: { minScore?: number; maxRank?: number } = {},
): Promise<{ event: QuestEventDto; score: string; players: string[] }> {
  const resources = t.get(ResourcesService);
  const score = (
    await resources.createType(tenantId, { ...resourceTypeInput(communityId), slug: uniqueName('s'), name: 'Score', kind: 'scoped' })
  ).id;
  const now = t.clock.now().getTime();
  const event = await t.get(QuestEventsService).create(tenantId, {
    ...questEventInput(communityId, now),
    name: 'Grand cup',
    registrationStartsAt: new Date(now - HOUR),
    registrationEndsAt: new Date(now + 2 * HOUR),
    startsAt: new Date(now + HOUR),
    endsAt: new Date(now + 3 * HOUR),
    scoreResourceTypeId: score,
    ...rule,
  });
  const prefix = uniqueHandle('p');
  const players: string[] = [];
  for (let from = 1; from <= n; from += BULK_ROWS) {
    const users: { id: string }[] = await t.dataSource.query(
      `INSERT INTO users (tenant_id, handle, handle_normalized)
       SELECT $1, $2 || '_' || g, $2 || '_' || g FROM generate_series($3::int, $4::int) g ORDER BY g RETURNING id`,
      [tenantId, prefix, from, Math.min(n, from + BULK_ROWS - 1)],
    );
    await t.dataSource.query(
      `INSERT INTO quest_event_participants (tenant_id, event_id, user_id, status, registered_at, status_changed_at)
       SELECT $1, $2, u, 1, now(), now() FROM unnest($3::uuid[]) u`,
      [tenantId, event.id, users.map((u) => u.id)],
    );
    players.push(...users.map((u) => u.id));
  }
  return { event, score, players };
}

/**
 * Credits each of `players` `amount(i)` of the event's score type (LedgerService.creditMany, in
 * statements of BULK_ROWS; amounts of 0 are skipped), each once (its key names the event).
 * ResourcesModule among the imports.
 */
export async function givenScores(
  t: ModuleTest,
  tenantId: string,
  event: { id: string; scoreResourceTypeId: string | null },
  players: string[],
  amount: (i: number) => number,
): Promise<void> {
  for (let from = 0; from < players.length; from += BULK_ROWS) {
    const credits = players
      .slice(from, from + BULK_ROWS)
      .map((userId, j) => ({ userId, amount: amount(from + j), idempotencyKey: `${event.id}:${userId}` }))
      .filter((c) => c.amount > 0);
    if (credits.length > 0)
      await t
        .get(LedgerService)
        .creditMany(t.dataSource.manager, { tenantId, resourceTypeId: event.scoreResourceTypeId!, reason: 'medium-test', credits });
  }
}
