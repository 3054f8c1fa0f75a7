import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { Wallet } from './entities/wallet.entity.js';

/** Users' wallets. */
@Injectable()
export class WalletsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'siwe', 'evm:1'] })
  find(tenantId: string, userId: string, provider: string, chain: string, em?: EntityManager): Promise<Wallet | null> {
    return this.manager(em).findOneBy(Wallet, { tenantId, userId, provider, chain });
  }

  /** Inserts the wallet unless one exists for its user, provider and chain (or its address is taken). */
  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        userId: DUMMY.uuid,
        provider: 'siwe',
        chain: 'evm:1',
        address: '0x0',
        claimIss: null,
        claimAud: null,
        claimSub: null,
      },
    ],
  })
  async insertIgnore(
    w: Pick<Wallet, 'tenantId' | 'userId' | 'provider' | 'chain' | 'address' | 'claimIss' | 'claimAud' | 'claimSub'>,
    em?: EntityManager,
  ): Promise<void> {
    await this.manager(em).createQueryBuilder().insert().into(Wallet).values(w).orIgnore().execute();
  }

  /** The user's earliest EVM wallet. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  firstEvm(tenantId: string, userId: string, em?: EntityManager): Promise<Wallet | null> {
    return this.manager(em)
      .getRepository(Wallet)
      .createQueryBuilder('w')
      .where('w.tenant_id = :tenantId AND w.user_id = :userId AND w.chain LIKE :evm', { tenantId, userId, evm: 'evm:%' })
      .orderBy('w.created_at', 'ASC')
      .addOrderBy('w.id', 'ASC')
      .getOne();
  }

  /** Every wallet of the user, oldest first. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  ofUser(tenantId: string, userId: string, em?: EntityManager): Promise<Wallet[]> {
    return this.manager(em)
      .getRepository(Wallet)
      .find({ where: { tenantId, userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
