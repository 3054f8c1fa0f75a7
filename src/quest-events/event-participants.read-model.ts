import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';

/**
 * The participants of quest events as the events module shows them (the caller's status on an
 * event, the list filter `participating`, whom completion notifies). Reads only:
 * `quest_event_participants` (participation). Participation changes them through its own service.
 */
@Injectable()
export class EventParticipantsReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The events the user is REGISTERED in, by id (a handful, by index). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async registeredEventIds(tenantId: string, userId: string, em?: EntityManager): Promise<string[]> {
    const rows: { event_id: string }[] = await this.manager(em).query(
      'SELECT event_id FROM quest_event_participants WHERE tenant_id = $1 AND user_id = $2 AND status = 1 ORDER BY event_id',
      [tenantId, userId],
    );
    return rows.map((r) => r.event_id);
  }

  /** The user's participant status per event (events without a row are absent). */
  @GenerateSql({ params: [[DUMMY.uuid], DUMMY.uuid2] })
  async statuses(eventIds: string[], userId: string, em?: EntityManager): Promise<Map<string, number>> {
    const rows: { event_id: string; status: number }[] = await this.manager(em).query(
      'SELECT event_id, status FROM quest_event_participants WHERE user_id = $1 AND event_id = ANY($2::uuid[])',
      [userId, eventIds],
    );
    return new Map(rows.map((r) => [r.event_id, r.status]));
  }

  /** The REGISTERED participants of the event, by user id. */
  @GenerateSql({ params: [DUMMY.uuid] })
  async registeredUserIds(eventId: string, em?: EntityManager): Promise<string[]> {
    const rows: { user_id: string }[] = await this.manager(em).query(
      'SELECT user_id FROM quest_event_participants WHERE event_id = $1 AND status = 1 ORDER BY user_id',
      [eventId],
    );
    return rows.map((r) => r.user_id);
  }
}
