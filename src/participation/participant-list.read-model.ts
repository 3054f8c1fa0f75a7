import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import type { EventState } from '../quest-events/event-status.js';
import type { ParticipantStatus } from './participant-status.js';

/**
 * The participant list of an event with who the participants are, and a player's participations
 * with their events. Reads only: `quest_event_participants` (participation) joined with `users`
 * (users) or `quest_events` (quest-events).
 */
@Injectable()
export class ParticipantListReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** REGISTERED participants with their user's handle and display name, first registered first, and their count. */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.page] })
  async listRegistered(
    eventId: string,
    page: { offset: number; limit: number },
    em?: EntityManager,
  ): Promise<{ rows: { userId: string; handle: string; displayName: string; score: string; registeredAt: Date }[]; total: number }> {
    const m = this.manager(em);
    const from = 'FROM quest_event_participants p JOIN users u ON u.id = p.user_id WHERE p.event_id = $1 AND p.status = 1';
    const [rows, count] = await Promise.all([
      m.query<{ userId: string; handle: string; displayName: string; score: string; registeredAt: Date }[]>(
        `SELECT p.user_id AS "userId", u.handle, u.display_name AS "displayName", p.score, p.registered_at AS "registeredAt" ${from}
         ORDER BY p.registered_at ASC, p.user_id ASC OFFSET $2 LIMIT $3`,
        [eventId, page.offset, page.limit],
      ),
      m.query<{ n: number }[]>(`SELECT COUNT(*)::int AS n ${from}`, [eventId]),
    ]);
    return { rows, total: count[0].n };
  }

  /** Participants in any status (or one), with their user's handle, first registered first, and their count (management). */
  @GenerateSql({ params: [DUMMY.uuid, null, DUMMY.page] })
  async listAll(
    eventId: string,
    status: number | null,
    page: { offset: number; limit: number },
    em?: EntityManager,
  ): Promise<{ rows: AdminParticipantRow[]; total: number }> {
    const m = this.manager(em);
    const from =
      'FROM quest_event_participants p JOIN users u ON u.id = p.user_id WHERE p.event_id = $1 AND ($2::smallint IS NULL OR p.status = $2)';
    const [rows, count] = await Promise.all([
      m.query<AdminParticipantRow[]>(
        `SELECT p.user_id AS "userId", u.handle, u.display_name AS "displayName", p.status, p.score, p.registered_at AS "registeredAt",
           p.status_changed_at AS "statusChangedAt", p.drop_reason AS "dropReason" ${from}
         ORDER BY p.registered_at ASC, p.user_id ASC OFFSET $3 LIMIT $4`,
        [eventId, status, page.offset, page.limit],
      ),
      m.query<{ n: number }[]>(`SELECT COUNT(*)::int AS n ${from}`, [eventId, status]),
    ]);
    return { rows, total: count[0].n };
  }

  /** A page of the user's participations in the tenant's events (any status, drafts included), latest registration first. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.page] })
  async ofUserPage(
    tenantId: string,
    userId: string,
    page: PageRequest,
    em?: EntityManager,
  ): Promise<{ rows: UserParticipationRow[]; total: number }> {
    const manager = this.manager(em);
    const from = 'FROM quest_event_participants p JOIN quest_events e ON e.id = p.event_id WHERE p.tenant_id = $1 AND p.user_id = $2';
    const [rows, count] = await Promise.all([
      manager.query<UserParticipationRow[]>(
        `SELECT p.event_id, e.slug AS event_slug, e.name AS event_name, e.community_id, e.state, e.registration_starts_at,
                e.registration_ends_at, e.starts_at, e.ends_at, p.status, p.score::text AS score, p.registered_at,
                p.status_changed_at, p.drop_reason
         ${from} ORDER BY p.registered_at DESC, p.id DESC OFFSET $3 LIMIT $4`,
        [tenantId, userId, page.offset, page.limit],
      ),
      manager.query<{ n: number }[]>(`SELECT COUNT(*)::int AS n ${from}`, [tenantId, userId]),
    ]);
    return { rows, total: count[0].n };
  }
}

export interface AdminParticipantRow {
  userId: string;
  handle: string;
  displayName: string | null;
  status: number;
  score: string;
  registeredAt: Date;
  statusChangedAt: Date;
  dropReason: string | null;
}

/** A row of `ofUserPage`. */
export interface UserParticipationRow {
  event_id: string;
  event_slug: string;
  event_name: string;
  community_id: string;
  state: EventState;
  registration_starts_at: Date;
  registration_ends_at: Date;
  starts_at: Date;
  ends_at: Date;
  status: ParticipantStatus;
  score: string;
  registered_at: Date;
  status_changed_at: Date;
  drop_reason: string | null;
}
