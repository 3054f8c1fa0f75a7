import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, Not, type DataSource, type EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import type { PageRequest } from '../common/pagination/pagination.js';
import { findOneFast, findPageFast } from '../database/find-one-fast.js';
import { BaseRepository, DUMMY, GenerateSql, updatedRows } from '../database/repository.js';
import { QuestEvent, type CompletionProgress } from './entities/quest-event.entity.js';

/** SQL of the derived status of `e` at `$now` (the same rule as `eventStatus`). */
export const STATUS_SQL = (now: string) => `CASE WHEN e.state = 'completing' THEN 'ended' WHEN e.state <> 'published' THEN e.state
  WHEN ${now} >= e.ends_at THEN 'ended'
  WHEN ${now} >= e.starts_at THEN 'active'
  WHEN ${now} >= e.registration_starts_at AND ${now} < e.registration_ends_at THEN 'registration_open'
  ELSE 'upcoming' END`;
const REG_OPEN_SQL = (now: string) =>
  `(e.state = 'published' AND ${now} >= e.registration_starts_at AND ${now} < e.registration_ends_at AND ${now} < e.ends_at)`;

/** The filters of the users' event list (`QuestEventsRepository.listQuery`). */
export interface EventListFilter {
  /** The ids of the caller's REGISTERED events, with `participating`. */
  participating?: { value: boolean; eventIds: string[] };
  registrationOpen?: boolean;
  communityId?: string;
  features: string[];
  statuses: string[];
  itemId?: string;
  resourceId?: string;
  /** Drafts too (the management list); users never see them. */
  includeDrafts?: boolean;
}

/** One page's query of the event list: the FROM/WHERE text and its parameters (what the list cache keys on). */
export interface EventListQuery {
  from: string;
  params: unknown[];
}

/**
 * The FROM ... WHERE of the users' event list (published events of the tenant, filtered), with
 * `now` bound once when a filter needs it. Pure: the page is read by `findListPage`.
 */
export function eventListQuery(tenantId: string, f: EventListFilter, now: Date): EventListQuery {
  const params: unknown[] = [tenantId];
  const param = (v: unknown) => `$${params.push(v)}`;
  let nowP: string | undefined;
  const at = () => (nowP ??= `${param(now)}::timestamptz`);
  const where = f.includeDrafts ? [`e.tenant_id = $1`] : [`e.tenant_id = $1`, `e.state <> 'draft'`];
  if (f.participating) {
    const ids = param(f.participating.eventIds);
    where.push(f.participating.value ? `e.id = ANY(${ids}::uuid[])` : `NOT (e.id = ANY(${ids}::uuid[]))`);
  }
  if (f.registrationOpen !== undefined) where.push(f.registrationOpen ? REG_OPEN_SQL(at()) : `NOT ${REG_OPEN_SQL(at())}`);
  if (f.communityId !== undefined) where.push(`e.community_id = ${param(f.communityId)}`);
  if (f.features.length > 0) where.push(`e.features @> ${param(f.features)}::text[]`);
  if (f.statuses.length > 0) where.push(`(${STATUS_SQL(at())}) = ANY(${param(f.statuses)}::text[])`);
  if (f.itemId)
    where.push(
      `EXISTS (SELECT 1 FROM quest_event_rewards r WHERE r.event_id = e.id AND r.item_id = ${param(f.itemId.toLowerCase())}::uuid)`,
    );
  if (f.resourceId) {
    const r = `${param(f.resourceId.toLowerCase())}::uuid`;
    where.push(
      `(e.score_resource_type_id = ${r} OR EXISTS (SELECT 1 FROM quest_event_rewards r WHERE r.event_id = e.id AND r.resource_type_id = ${r}))`,
    );
  }
  return { from: `FROM quest_events e WHERE ${where.join(' AND ')}`, params };
}

/** Quest events (`quest_events`): lookups, the list page, the state changes and the seat counter. */
@Injectable()
export class QuestEventsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The event of the tenant by id; `lock` takes the row lock (inside a transaction). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] }, { name: 'lock', params: [DUMMY.tenant, DUMMY.uuid, true], inTransaction: true })
  async findById(tenantId: string, id: string, lock = false, em?: EntityManager): Promise<QuestEvent | null> {
    return this.find({ tenantId, id }, lock, em);
  }

  /** The event of the tenant by slug; `lock` takes the row lock (inside a transaction). */
  @GenerateSql({ params: [DUMMY.tenant, 'pirate-cup'] }, { name: 'lock', params: [DUMMY.tenant, 'pirate-cup', true], inTransaction: true })
  async findBySlug(tenantId: string, slug: string, lock = false, em?: EntityManager): Promise<QuestEvent | null> {
    return this.find({ tenantId, slug }, lock, em);
  }

  private async find(
    where: { tenantId: string; id?: string; slug?: string },
    lock: boolean,
    em?: EntityManager,
  ): Promise<QuestEvent | null> {
    const m = this.manager(em);
    if (lock) return m.getRepository(QuestEvent).findOne({ where, lock: { mode: 'pessimistic_write' } });
    return findOneFast(m, QuestEvent, where); // every event read, the leaderboard among them
  }

  /** One page of the event list (`eventListQuery`), earliest start first, and the total. */
  @GenerateSql({ params: [eventListQuery(DUMMY.tenant, { features: [], statuses: [] }, DUMMY.date), DUMMY.page] })
  async findListPage(q: EventListQuery, page: PageRequest, em?: EntityManager): Promise<{ rows: QuestEvent[]; total: number }> {
    return findPageFast(this.manager(em), QuestEvent, { alias: 'e', order: 'e.starts_at ASC, e.id ASC', ...q, page });
  }

  /** One page of the management list (`eventListQuery` with drafts), latest start first, and the total. */
  @GenerateSql({ params: [eventListQuery(DUMMY.tenant, { features: [], statuses: [], includeDrafts: true }, DUMMY.date), DUMMY.page] })
  async findAdminPage(q: EventListQuery, page: PageRequest, em?: EntityManager): Promise<{ rows: QuestEvent[]; total: number }> {
    return findPageFast(this.manager(em), QuestEvent, { alias: 'e', order: 'e.starts_at DESC, e.id ASC', ...q, page });
  }

  /** Published events whose end has passed, oldest end first (the completion worker's claims). */
  @GenerateSql({ params: [DUMMY.date] })
  async findDue(now: Date, em?: EntityManager): Promise<{ id: string; tenant_id: string }[]> {
    return this.manager(em).query(
      `SELECT id, tenant_id FROM quest_events WHERE state = 'published' AND ends_at <= $1 ORDER BY ends_at LIMIT 100`,
      [now],
    );
  }

  /**
   * Events with batches left to do: a completion claimed and not finished, or a cancellation whose
   * players are not all told yet (a close or cancel answered early, an instance stopped mid-way).
   */
  @GenerateSql({ params: [] })
  async findPending(em?: EntityManager): Promise<{ id: string }[]> {
    return this.manager(em).query(`SELECT id FROM quest_events WHERE completion IS NOT NULL ORDER BY ends_at LIMIT 100`);
  }

  @GenerateSql({ params: [{ tenantId: DUMMY.tenant, communityId: DUMMY.uuid, slug: 'cup', name: 'Cup' }] })
  async insert(fields: Partial<QuestEvent>, em?: EntityManager): Promise<QuestEvent> {
    const repo = this.manager(em).getRepository(QuestEvent);
    return repo.save(repo.create(fields));
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, { name: 'Cup' }] })
  async update(tenantId: string, id: string, fields: QueryDeepPartialEntity<QuestEvent>, em?: EntityManager): Promise<void> {
    await this.manager(em).getRepository(QuestEvent).update({ id, tenantId }, fields);
  }

  /**
   * Claims the event's completion if it is published and over (or, `early`, started): the
   * conditional update concurrent completions serialise on, which stores the completion's first
   * place. Whether this call won.
   */
  @GenerateSql({
    params: [
      DUMMY.tenant,
      DUMMY.uuid,
      DUMMY.date,
      false,
      { before: '2026-01-01T00:00:00.000Z', step: 'scores', afterUser: null, afterScore: null, afterRank: null, position: 0 },
    ],
  })
  async claimCompletion(
    tenantId: string,
    eventId: string,
    now: Date,
    early: boolean,
    progress: CompletionProgress,
    em?: EntityManager,
  ): Promise<boolean> {
    const won = updatedRows<{ id: string }>(
      await this.manager(em).query(
        `UPDATE quest_events SET state = 'completing', completion = $5
           WHERE id = $1 AND tenant_id = $2 AND state = 'published' AND (ends_at <= $3 OR ($4 AND starts_at <= $3))
           RETURNING id`,
        [eventId, tenantId, now, early, JSON.stringify(progress)],
      ),
    );
    return won.length > 0;
  }

  /**
   * An event with batches left to do (completing, or cancelled with players still to tell),
   * row-locked until the commit, for one batch; null when it has none left, or when another
   * transaction holds it (another instance's batch: SKIP LOCKED, so no one waits behind one).
   */
  @GenerateSql({ params: [DUMMY.uuid], inTransaction: true })
  async lockPending(eventId: string, em?: EntityManager): Promise<QuestEvent | null> {
    return this.manager(em)
      .getRepository(QuestEvent)
      .findOne({
        where: { id: eventId, completion: Not(IsNull()) },
        lock: { mode: 'for_no_key_update', onLocked: 'skip_locked' },
      });
  }

  /** The stored state of the event (null: none), whatever its tenant, and whether it has batches left to do. */
  @GenerateSql({ params: [DUMMY.uuid] })
  async stateOf(eventId: string, em?: EntityManager): Promise<{ state: string; pending: boolean } | null> {
    const rows = await this.manager(em).query<{ state: string; pending: boolean }[]>(
      'SELECT state, completion IS NOT NULL AS pending FROM quest_events WHERE id = $1',
      [eventId],
    );
    return rows[0] ?? null;
  }

  /** Stores where the event's batches stand (null: none left). */
  @GenerateSql({
    params: [
      DUMMY.uuid,
      { before: '2026-01-01T00:00:00.000Z', step: 'ranked', afterUser: null, afterScore: null, afterRank: null, position: 0 },
    ],
  })
  async saveCompletion(eventId: string, progress: CompletionProgress | null, em?: EntityManager): Promise<void> {
    await this.manager(em).query(`UPDATE quest_events SET completion = $2 WHERE id = $1 AND completion IS NOT NULL`, [
      eventId,
      progress === null ? null : JSON.stringify(progress),
    ]);
  }

  /** The completion's last step: the event is completed. */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.date] })
  async finishCompletion(eventId: string, now: Date, em?: EntityManager): Promise<void> {
    await this.manager(em).query(
      `UPDATE quest_events SET state = 'completed', completed_at = $2, completion = NULL WHERE id = $1 AND state = 'completing'`,
      [eventId, now],
    );
  }

  /**
   * Takes a seat: `registered_count + 1` while registration is open and the capacity allows,
   * one conditional single-row update. Whether a seat was taken.
   */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.date] })
  async takeSeat(eventId: string, now: Date, em?: EntityManager): Promise<boolean> {
    const seat = updatedRows<{ registered_count: number }>(
      await this.manager(em).query(
        `UPDATE quest_events SET registered_count = registered_count + 1
           WHERE id = $1 AND state = 'published' AND registration_starts_at <= $2 AND $2 < registration_ends_at AND $2 < ends_at
             AND (capacity IS NULL OR registered_count < capacity)
           RETURNING registered_count`,
        [eventId, now],
      ),
    );
    return seat.length > 0;
  }

  /** Frees a seat (the event row is locked by the caller). */
  @GenerateSql({ params: [DUMMY.uuid] })
  async freeSeat(eventId: string, em?: EntityManager): Promise<void> {
    await this.manager(em).query('UPDATE quest_events SET registered_count = registered_count - 1 WHERE id = $1', [eventId]);
  }
}
