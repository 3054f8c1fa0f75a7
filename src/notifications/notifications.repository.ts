import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, type DataSource, type EntityManager, IsNull } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { Notification } from './entities/notification.entity.js';
import type { NotificationType } from './notification-types.js';

/** A notification row ready to be written (built by `NotificationsService.prepare`). */
export interface PreparedNotification {
  tenantId: string;
  userId: string;
  communityId: string | null;
  type: NotificationType;
  title: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** Users' notifications. */
@Injectable()
export class NotificationsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        userId: DUMMY.uuid,
        communityId: null,
        type: 'referral_joined',
        title: 'Hi',
        data: {},
        readAt: null,
        createdAt: DUMMY.date,
      },
    ],
  })
  insert(n: Omit<Notification, 'id'> | Partial<Notification>, em?: EntityManager): Promise<Notification> {
    const m = this.manager(em);
    return m.save(m.create(Notification, n));
  }

  /** Unread notifications (`NotificationsService.prepare`d) for many users in one statement; each row's id and user. */
  @GenerateSql({
    params: [
      [
        {
          tenantId: DUMMY.tenant,
          userId: DUMMY.uuid,
          communityId: null,
          type: 'season_reward',
          title: 'Hi',
          data: {},
          createdAt: DUMMY.date,
        },
      ],
    ],
  })
  insertMany(rows: PreparedNotification[], em?: EntityManager): Promise<{ id: string; tenant_id: string; user_id: string }[]> {
    return this.manager(em).query(
      `INSERT INTO notifications (tenant_id, user_id, community_id, type, title, data, read_at, created_at)
       SELECT x.tenant_id, x.user_id, x.community_id, x.type, x.title, x.data, NULL, x.created_at
       FROM jsonb_to_recordset($1::jsonb) AS x(tenant_id uuid, user_id uuid, community_id uuid, type varchar, title varchar, data jsonb, created_at timestamptz)
       RETURNING id, tenant_id, user_id`,
      [
        JSON.stringify(
          rows.map((r) => ({
            tenant_id: r.tenantId,
            user_id: r.userId,
            community_id: r.communityId,
            type: r.type,
            title: r.title,
            data: r.data,
            created_at: r.createdAt.toISOString(),
          })),
        ),
      ],
    );
  }

  /**
   * A page of the user's notifications, newest first, their total and how many are unread: of one
   * community and the account-wide ones, or with `communityId` null every one (management).
   */
  @GenerateSql(
    { params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, DUMMY.page] },
    { params: [DUMMY.tenant, DUMMY.uuid, null, DUMMY.page], name: 'all communities' },
  )
  async page(
    tenantId: string,
    userId: string,
    communityId: string | null,
    page: PageRequest,
    em?: EntityManager,
  ): Promise<{ rows: Notification[]; total: number; unread: number }> {
    const scoped = () => {
      const q = this.manager(em)
        .getRepository(Notification)
        .createQueryBuilder('n')
        .where('n.tenant_id = :tenantId AND n.user_id = :userId', { tenantId, userId });
      if (communityId !== null)
        q.andWhere(new Brackets((b) => b.where('n.community_id = :communityId', { communityId }).orWhere('n.community_id IS NULL')));
      return q;
    };
    const [[rows, total], unread] = await Promise.all([
      scoped()
        .orderBy('n.created_at', 'DESC')
        // Ties of time in the order written (rows from before \`seq\` have none: by id among themselves).
        .addOrderBy('n.seq', 'DESC', 'NULLS LAST')
        .addOrderBy('n.id', 'DESC')
        .offset(page.offset)
        .limit(page.limit)
        .getManyAndCount(),
      scoped().andWhere('n.read_at IS NULL').getCount(),
    ]);
    return { rows, total, unread };
  }

  /** Marks every unread notification of the user read. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.date] })
  async markAllRead(tenantId: string, userId: string, at: Date, em?: EntityManager): Promise<void> {
    await this.manager(em).getRepository(Notification).update({ tenantId, userId, readAt: IsNull() }, { readAt: at });
  }
}
