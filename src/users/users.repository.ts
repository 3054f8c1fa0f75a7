import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { DUMMY, GenerateSql } from '../database/repository.js';
import { type InTenant, TenantScoped, TenantScopedRepository } from '../database/tenant-scoped.repository.js';
import { Referral } from './entities/referral.entity.js';
import { User } from './entities/user.entity.js';

/** Users and referrals. */
@Injectable()
@TenantScoped(User)
export class UsersRepository extends TenantScopedRepository<User> {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  exists(tenantId: string, id: string, em?: EntityManager): Promise<boolean> {
    return this.manager(em).getRepository(User).existsBy({ tenantId, id });
  }

  /** The handle and display name of each of `ids` that is a user of the tenant. */
  @GenerateSql({ params: [DUMMY.tenant, [DUMMY.uuid]] })
  findNames(tenantId: string, ids: string[], em?: EntityManager): Promise<Pick<User, 'id' | 'handle' | 'displayName'>[]> {
    return this.manager(em)
      .getRepository(User)
      .find({ select: { id: true, handle: true, displayName: true }, where: { tenantId, id: In(ids) } });
  }

  /** By the lower-cased username. */
  @GenerateSql({ params: [DUMMY.tenant, 'ada'] })
  findByUsername(tenantId: string, usernameNormalized: string, em?: EntityManager): Promise<User | null> {
    return this.manager(em).getRepository(User).findOneBy({ tenantId, usernameNormalized });
  }

  /** By the lower-cased handle. */
  @GenerateSql({ params: [DUMMY.tenant, 'ada'] })
  findByHandle(tenantId: string, handleNormalized: string, em?: EntityManager): Promise<User | null> {
    return this.manager(em).getRepository(User).findOneBy({ tenantId, handleNormalized });
  }

  /** How many rows changed (0: no such user). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, { displayName: 'Ada' }] })
  async update(
    tenantId: string,
    id: string,
    set: Partial<Pick<User, 'displayName' | 'handle' | 'handleNormalized'>>,
    em?: EntityManager,
  ): Promise<number> {
    return (await this.manager(em).update(User, { tenantId, id }, set)).affected ?? 0;
  }

  /** Inserts in a savepoint, so that a unique violation does not abort the caller's transaction. */
  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        username: null,
        usernameNormalized: null,
        passwordHash: null,
        handle: 'ada',
        handleNormalized: 'ada',
        displayName: null,
      },
    ],
  })
  insert(user: InTenant<Partial<User>>, em?: EntityManager): Promise<User> {
    return this.manager(em).transaction((inner) => inner.save(inner.create(User, user)));
  }

  /** Records a referral unless the referred user has one in that scope; whether it was recorded. */
  @GenerateSql({ params: [{ tenantId: DUMMY.tenant, referrerId: DUMMY.uuid, referredId: DUMMY.uuid2, communityId: null }] })
  async insertReferral(
    r: { tenantId: string; referrerId: string; referredId: string; communityId: string | null },
    em?: EntityManager,
  ): Promise<boolean> {
    const res = await this.manager(em).createQueryBuilder().insert().into(Referral).values(r).orIgnore().execute();
    return (res.raw as unknown[]).length > 0;
  }

  /** Handles of the users `referrerId` referred (all scopes, or one community), newest first. */
  @GenerateSql(
    { params: [DUMMY.tenant, DUMMY.uuid, undefined], name: 'all scopes' },
    { params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2], name: 'one community' },
  )
  referredHandles(
    tenantId: string,
    referrerId: string,
    communityId?: string,
    em?: EntityManager,
  ): Promise<{ userId: string; handle: string; communityId: string | null; createdAt: Date }[]> {
    const qb = this.manager(em)
      .getRepository(Referral)
      .createQueryBuilder('r')
      .innerJoin(User, 'u', 'u.id = r.referred_id')
      .select(['r.referred_id AS "userId"', 'u.handle AS handle', 'r.community_id AS "communityId"', 'r.created_at AS "createdAt"'])
      .where('r.tenant_id = :tenantId AND r.referrer_id = :referrerId', { tenantId, referrerId })
      .orderBy('r.created_at', 'DESC')
      .addOrderBy('r.id', 'ASC');
    if (communityId) qb.andWhere('r.community_id = :communityId', { communityId });
    return qb.getRawMany();
  }

  /** How many users `referrerId` referred into the community. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async countReferred(tenantId: string, referrerId: string, communityId: string, em?: EntityManager): Promise<number> {
    const [{ n }]: { n: number }[] = await this.manager(em).query(
      'SELECT count(*)::int AS n FROM referrals WHERE tenant_id = $1 AND referrer_id = $2 AND community_id = $3',
      [tenantId, referrerId, communityId],
    );
    return n;
  }

  /** Which of these ids are users of the tenant. */
  @GenerateSql({ params: [DUMMY.tenant, [DUMMY.uuid]] })
  async existing(tenantId: string, ids: string[], em?: EntityManager): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: { id: string }[] = await this.manager(em).query('SELECT id FROM users WHERE tenant_id = $1 AND id = ANY($2::uuid[])', [
      tenantId,
      ids,
    ]);
    return new Set(rows.map((r) => r.id));
  }
}
