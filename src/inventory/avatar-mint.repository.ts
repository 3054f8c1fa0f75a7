import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { AvatarMint, type AvatarSnapshot } from './entities/avatar-mint.entity.js';

/** What a mint request stores. */
export interface NewAvatarMint {
  id: string;
  communityId: string;
  userId: string;
  blockchain: string;
  chainId: number;
  contractAddress: string;
  recipient: string;
  avatarVersion: number;
  tokenId: string;
  tokenUri: string;
  metadata: AvatarSnapshot;
  now: Date;
}

/** Avatar mint jobs (avatar_mints): requests, and the worker's claims and outcomes. */
@Injectable()
export class AvatarMintRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The user's latest mints (at most 20), latest first. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  latest(tenantId: string, communityId: string, userId: string, em?: EntityManager): Promise<AvatarMint[]> {
    return this.manager(em)
      .getRepository(AvatarMint)
      .find({ where: { tenantId, communityId, userId }, order: { createdAt: 'DESC', id: 'DESC' }, take: 20 });
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] })
  findById(tenantId: string, communityId: string, id: string, em?: EntityManager): Promise<AvatarMint | null> {
    return this.manager(em).getRepository(AvatarMint).findOneBy({ tenantId, communityId, id });
  }

  /** Queues a mint; false when this version was already requested on that blockchain (nothing inserted). */
  @GenerateSql({
    params: [
      DUMMY.tenant,
      {
        id: DUMMY.uuid,
        communityId: DUMMY.uuid2,
        userId: DUMMY.uuid3,
        blockchain: 'base',
        chainId: 8453,
        contractAddress: '0x0000000000000000000000000000000000000001',
        recipient: '0x0000000000000000000000000000000000000002',
        avatarVersion: 1,
        tokenId: '1',
        tokenUri: 'https://example.test/1',
        metadata: { name: 'a', description: 'b', image: null, attributes: [] },
        now: DUMMY.date,
      },
    ],
  })
  async insert(tenantId: string, m: NewAvatarMint, em?: EntityManager): Promise<boolean> {
    const inserted: { id: string }[] = await this.manager(em).query(
      `INSERT INTO avatar_mints (id, tenant_id, community_id, user_id, blockchain, chain_id, contract_address, recipient, avatar_version, token_id, token_uri, metadata, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'pending', 0, $13, $13, $13)
         ON CONFLICT (community_id, user_id, blockchain, avatar_version) DO NOTHING RETURNING id`,
      [
        m.id,
        tenantId,
        m.communityId,
        m.userId,
        m.blockchain,
        m.chainId,
        m.contractAddress,
        m.recipient,
        m.avatarVersion,
        m.tokenId,
        m.tokenUri,
        JSON.stringify(m.metadata),
        m.now,
      ],
    );
    return inserted.length > 0;
  }

  /** Queues a failed mint of that version again; false when there is none (pending, sending or minted). */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, 'base', 1, DUMMY.date] })
  async requeueFailed(
    tenantId: string,
    communityId: string,
    userId: string,
    blockchain: string,
    avatarVersion: number,
    now: Date,
    em?: EntityManager,
  ): Promise<boolean> {
    const [, requeued]: [unknown[], number] = await this.manager(em).query(
      `UPDATE avatar_mints SET status = 'pending', attempts = 0, next_attempt_at = $5, last_error = NULL, updated_at = $5
         WHERE community_id = $1 AND user_id = $2 AND blockchain = $3 AND avatar_version = $4 AND status = 'failed'`,
      [communityId, userId, blockchain, avatarVersion, now],
    );
    return requeued > 0;
  }

  // ---------------------------------------------------------------- the worker (every tenant)

  /**
   * Claims the next due job (`FOR UPDATE SKIP LOCKED`): marks it sending, counts the attempt and
   * leases it until `lease`. Run inside a transaction. Null when none is due.
   */
  @GenerateSql({ params: [DUMMY.date, DUMMY.date] })
  async claimDue(now: Date, lease: Date, em?: EntityManager): Promise<AvatarMint | null> {
    const manager = this.manager(em);
    const [row]: { id: string }[] = await manager.query(
      `SELECT id FROM avatar_mints WHERE status IN ('pending', 'sending') AND next_attempt_at <= $1
         ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [now],
    );
    if (!row) return null;
    await manager.query(
      `UPDATE avatar_mints SET status = 'sending', attempts = attempts + 1, next_attempt_at = $2, updated_at = $3 WHERE id = $1`,
      [row.id, lease, now],
    );
    return manager.findOneByOrFail(AvatarMint, { id: row.id });
  }

  /** The signed transaction, stored before it is sent (a retry sends the same one). */
  @GenerateSql({ params: [DUMMY.uuid, { rawTx: '0x00', txHash: '0x01', nonce: 0 }, DUMMY.date] })
  async recordSigned(id: string, signed: { rawTx: string; txHash: string; nonce: number }, now: Date, em?: EntityManager): Promise<void> {
    await this.manager(em).query('UPDATE avatar_mints SET raw_tx = $2, tx_hash = $3, nonce = $4, updated_at = $5 WHERE id = $1', [
      id,
      signed.rawTx,
      signed.txHash,
      signed.nonce,
      now,
    ]);
  }

  /** Marks the job minted unless it already is; false then. */
  @GenerateSql({ params: [DUMMY.uuid, '0x01', DUMMY.date] })
  async markMinted(id: string, txHash: string | null, now: Date, em?: EntityManager): Promise<boolean> {
    const [, changed]: [unknown[], number] = await this.manager(em).query(
      `UPDATE avatar_mints SET status = 'minted', tx_hash = COALESCE($2, tx_hash), minted_at = $3, last_error = NULL, updated_at = $3 WHERE id = $1 AND status <> 'minted'`,
      [id, txHash, now],
    );
    return changed > 0;
  }

  /** Marks the job failed for good unless it was minted; false then. */
  @GenerateSql({ params: [DUMMY.uuid, 'error', DUMMY.date] })
  async markFailed(id: string, error: string, now: Date, em?: EntityManager): Promise<boolean> {
    const [, changed]: [unknown[], number] = await this.manager(em).query(
      `UPDATE avatar_mints SET status = 'failed', last_error = $2, updated_at = $3 WHERE id = $1 AND status <> 'minted'`,
      [id, error, now],
    );
    return changed > 0;
  }

  /** Puts the job back to pending until `nextAttemptAt` (unless it was minted). */
  @GenerateSql({ params: [DUMMY.uuid, 'error', DUMMY.date, DUMMY.date] })
  async retryLater(id: string, error: string, nextAttemptAt: Date, now: Date, em?: EntityManager): Promise<void> {
    await this.manager(em).query(
      `UPDATE avatar_mints SET status = 'pending', last_error = $2, next_attempt_at = $3, updated_at = $4 WHERE id = $1 AND status <> 'minted'`,
      [id, error, nextAttemptAt, now],
    );
  }
}
