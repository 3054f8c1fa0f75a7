import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination/pagination.js';
import { DUMMY, GenerateSql, updatedRows } from '../database/repository.js';
import { type InTenant, TenantScoped, TenantScopedRepository } from '../database/tenant-scoped.repository.js';
import type { PrizeSource } from './entities/prize-award.entity.js';
import { Prize } from './entities/prize.entity.js';

export interface AwardRow {
  id: string;
  prize_id: string;
  user_id: string;
  quantity: number;
  source: PrizeSource;
  created_at: Date;
}

/** Prizes, their supply and their awards. */
@Injectable()
@TenantScoped(Prize)
export class PrizesRepository extends TenantScopedRepository<Prize> {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Locks the prize row until the caller's transaction ends. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  async lock(tenantId: string, id: string, em?: EntityManager): Promise<void> {
    await this.manager(em).query('SELECT 1 FROM prizes WHERE id = $2 AND tenant_id = $1 FOR UPDATE', [tenantId, id]);
  }

  /** Inserts a new prize or writes a loaded one back. */
  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        communityId: null,
        name: 'Crown',
        description: '',
        imageUrl: null,
        kind: 'achievement',
        totalSupply: 10,
        awarded: 0,
        requirementIds: [],
      },
    ],
  })
  save(prize: InTenant<Partial<Prize>>, em?: EntityManager): Promise<Prize> {
    const repo = this.manager(em).getRepository(Prize);
    return repo.save(repo.create(prize));
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.page] })
  page(tenantId: string, page: PageRequest, em?: EntityManager): Promise<[Prize[], number]> {
    return this.manager(em)
      .getRepository(Prize)
      .findAndCount({ where: { tenantId }, order: { createdAt: 'ASC', id: 'ASC' }, skip: page.offset, take: page.limit });
  }

  @GenerateSql({ params: [DUMMY.tenant, [DUMMY.uuid, DUMMY.uuid2]] })
  findByIds(tenantId: string, ids: string[], em?: EntityManager): Promise<Prize[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.manager(em)
      .getRepository(Prize)
      .createQueryBuilder('p')
      .where('p.tenantId = :tenantId AND p.id IN (:...ids)', { tenantId, ids })
      .getMany();
  }

  /** Counts `quantity` more awarded unless the supply would be exceeded: null then. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 1] })
  async takeSupply(
    tenantId: string,
    id: string,
    quantity: number,
    em?: EntityManager,
  ): Promise<{ awarded: number; total_supply: number | null } | null> {
    const after = updatedRows<{ awarded: number; total_supply: number | null }>(
      await this.manager(em).query(
        `UPDATE prizes SET awarded = awarded + $3 WHERE id = $2 AND tenant_id = $1 AND (total_supply IS NULL OR awarded + $3 <= total_supply)
         RETURNING awarded, total_supply`,
        [tenantId, id, quantity],
      ),
    );
    return after[0] ?? null;
  }

  /** Appends an award and claims its idempotency key; null when the key was taken. */
  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        prizeId: DUMMY.uuid,
        userId: DUMMY.uuid2,
        quantity: 1,
        source: 'admin',
        reason: 'grant',
        reference: null,
        idempotencyKey: 'k',
        createdAt: DUMMY.date,
      },
    ],
  })
  async insertAward(
    a: {
      tenantId: string;
      prizeId: string;
      userId: string;
      quantity: number;
      source: PrizeSource;
      reason: string;
      reference: string | null;
      idempotencyKey: string | null;
      createdAt: Date;
    },
    em?: EntityManager,
  ): Promise<{ id: string; created_at: Date } | null> {
    const inserted: { id: string; created_at: Date }[] = await this.manager(em).query(
      `INSERT INTO prize_awards (tenant_id, prize_id, user_id, quantity, source, reason, reference, idempotency_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id, created_at`,
      [a.tenantId, a.prizeId, a.userId, a.quantity, a.source, a.reason, a.reference, a.idempotencyKey, a.createdAt],
    );
    return inserted[0] ?? null;
  }

  @GenerateSql({ params: [DUMMY.tenant, 'k'] })
  async awardByKey(tenantId: string, idempotencyKey: string, em?: EntityManager): Promise<AwardRow | null> {
    const [first]: AwardRow[] = await this.manager(em).query(
      'SELECT id, prize_id, user_id, quantity, source, created_at FROM prize_awards WHERE tenant_id = $1 AND idempotency_key = $2',
      [tenantId, idempotencyKey],
    );
    return first ?? null;
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async ownedQuantity(tenantId: string, userId: string, prizeId: string, em?: EntityManager): Promise<number> {
    const [row]: { q: number }[] = await this.manager(em).query(
      'SELECT COALESCE(SUM(quantity), 0)::int AS q FROM prize_awards WHERE tenant_id = $1 AND user_id = $2 AND prize_id = $3',
      [tenantId, userId, prizeId],
    );
    return row.q;
  }

  /** A page of the tenant's prizes (only those the user owns, or all) with the user's units, oldest first, and the count. */
  @GenerateSql(
    { params: [DUMMY.tenant, DUMMY.uuid, true, DUMMY.page], name: 'owned' },
    { params: [DUMMY.tenant, DUMMY.uuid, false, DUMMY.page], name: 'all' },
  )
  async pageForUser(
    tenantId: string,
    userId: string,
    ownedOnly: boolean,
    page: PageRequest,
    em?: EntityManager,
  ): Promise<{ rows: { id: string; q: number | null }[]; total: number }> {
    const m = this.manager(em);
    const owned = `(SELECT prize_id, SUM(quantity)::int AS q FROM prize_awards WHERE tenant_id = $1 AND user_id = $2 GROUP BY prize_id)`;
    const join = ownedOnly ? `JOIN ${owned} o ON o.prize_id = p.id` : `LEFT JOIN ${owned} o ON o.prize_id = p.id`;
    const [rows, [{ n }]] = await Promise.all([
      m.query<{ id: string; q: number | null }[]>(
        `SELECT p.id, o.q FROM prizes p ${join} WHERE p.tenant_id = $1 ORDER BY p.created_at, p.id LIMIT $3 OFFSET $4`,
        [tenantId, userId, page.limit, page.offset],
      ),
      m.query<{ n: number }[]>(`SELECT COUNT(*)::int AS n FROM prizes p ${join} WHERE p.tenant_id = $1`, [tenantId, userId]),
    ]);
    return { rows, total: n };
  }
}
