import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';

/**
 * The participant list of an event with who the participants are. Reads only:
 * `quest_event_participants` (participation) joined with `users` (users).
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
}
