import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, FindOptionsWhere } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { SocialAccount } from './entities/social-account.entity.js';

/** Linked social accounts. */
@Injectable()
export class SocialsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The user's accounts (all, of one type, or the public ones), oldest first. */
  @GenerateSql(
    { params: [DUMMY.tenant, DUMMY.uuid, {}], name: 'all' },
    { params: [DUMMY.tenant, DUMMY.uuid, { accountType: 'discord' }], name: 'of a type' },
  )
  ofUser(
    tenantId: string,
    userId: string,
    filter: Pick<FindOptionsWhere<SocialAccount>, 'accountType' | 'isPublic'>,
    em?: EntityManager,
  ): Promise<SocialAccount[]> {
    return this.manager(em)
      .getRepository(SocialAccount)
      .find({ where: { tenantId, userId, ...filter }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** A new, unsaved row. */
  build(fields: Partial<SocialAccount>): SocialAccount {
    return this.dataSource.manager.create(SocialAccount, fields);
  }

  /** Inserts in a savepoint, so that a unique violation does not abort the caller's transaction. */
  @GenerateSql({
    params: [{ id: DUMMY.uuid, tenantId: DUMMY.tenant, userId: DUMMY.uuid2, accountType: 'discord', subjectId: '42', isPublic: true }],
  })
  insert(row: Partial<SocialAccount>, em?: EntityManager): Promise<SocialAccount> {
    return this.manager(em).transaction((inner) => inner.save(inner.create(SocialAccount, row)));
  }

  @GenerateSql({
    params: [{ id: DUMMY.uuid, tenantId: DUMMY.tenant, userId: DUMMY.uuid2, accountType: 'discord', subjectId: '42', isPublic: true }],
  })
  save(row: SocialAccount, em?: EntityManager): Promise<SocialAccount> {
    return this.manager(em).getRepository(SocialAccount).save(row);
  }

  /** The account of a subject, row-locked (inside a transaction). */
  @GenerateSql({ params: [DUMMY.tenant, 'discord', '42'], inTransaction: true })
  lockBySubject(tenantId: string, accountType: string, subjectId: string, em?: EntityManager): Promise<SocialAccount | null> {
    return this.manager(em).findOne(SocialAccount, { where: { tenantId, accountType, subjectId }, lock: { mode: 'pessimistic_write' } });
  }

  /** The user's account, row-locked (inside a transaction). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2], inTransaction: true })
  lockOwned(tenantId: string, userId: string, id: string, em?: EntityManager): Promise<SocialAccount | null> {
    return this.manager(em).findOne(SocialAccount, { where: { tenantId, userId, id }, lock: { mode: 'pessimistic_write' } });
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  findOwned(tenantId: string, userId: string, id: string, em?: EntityManager): Promise<SocialAccount | null> {
    return this.manager(em).getRepository(SocialAccount).findOneBy({ tenantId, userId, id });
  }

  /** Whether a row was deleted. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  async delete(tenantId: string, userId: string, id: string, em?: EntityManager): Promise<boolean> {
    return ((await this.manager(em).getRepository(SocialAccount).delete({ tenantId, userId, id })).affected ?? 0) > 0;
  }
}
