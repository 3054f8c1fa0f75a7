import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../database/prepared-query.js';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { EXAMPLE_OUTBOX_RECORD, OutboxRepository, PIECE_DELIVERIES, type OutboxRecord } from '../integrations/outbox.repository.js';
import { Identity } from './entities/identity.entity.js';
import { RefreshToken } from './entities/refresh-token.entity.js';

/** The values of a one-time nonce's claim (see `touchIdentity`). */
export interface NonceClaim {
  kind: string;
  value: string;
  expiresAt: Date;
}

/** The tail of a nonce claim: a used nonce is taken over only once it expired; RETURNING 1 when claimed. */
const CLAIM_EXPIRED_ONLY = `ON CONFLICT (tenant_id, kind, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at, created_at = now()
       WHERE used_nonces.expires_at < $4
       RETURNING 1`;

/**
 * The identity ($1-$3) brought up to date at $4 with the provider tokens $5-$7 (null keeps the
 * stored one), only if the statement's nonce step `n` wrote.
 */
const TOUCH_IDENTITY = `UPDATE identities SET last_login_at = $4, updated_at = $4,
           id_token_enc = COALESCE($5, id_token_enc), access_token_enc = COALESCE($6, access_token_enc), refresh_token_enc = COALESCE($7, refresh_token_enc)
         WHERE tenant_id = $1 AND provider = $2 AND subject_id = $3 AND EXISTS (SELECT 1 FROM n)
         RETURNING user_id`;

type IdentityKey = { tenantId: string; provider: string; subjectId: string };
type ProviderTokens = { idToken?: string | null; accessToken?: string | null; refreshToken?: string | null };

/** $1-$7 of TOUCH_IDENTITY. */
const identityParams = (id: IdentityKey, now: Date, enc: ProviderTokens): unknown[] => [
  id.tenantId,
  id.provider,
  id.subjectId,
  now,
  enc.idToken ?? null,
  enc.accessToken ?? null,
  enc.refreshToken ?? null,
];
const nonceParams = (nonce: NonceClaim | null): unknown[] => (nonce ? [nonce.kind, nonce.value, nonce.expiresAt] : []);

/**
 * Refresh tokens, external identities and one-time nonces. Nonces are enforced by the primary key
 * of `used_nonces` (so across instances and concurrent requests: the second INSERT waits for the
 * first transaction and then conflicts); a row whose expiry has passed is taken over.
 */
@Injectable()
export class AuthRepository extends BaseRepository {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly outbox: OutboxRepository,
  ) {
    super(dataSource);
  }

  @GenerateSql({
    params: [{ id: DUMMY.uuid, tokenHash: 'h', userId: DUMMY.uuid2, tenantId: DUMMY.tenant, expiresAt: DUMMY.date, revokedAt: null }],
  })
  async insertRefreshToken(
    row: Pick<RefreshToken, 'id' | 'tokenHash' | 'userId' | 'tenantId' | 'expiresAt' | 'revokedAt'>,
    em?: EntityManager,
  ): Promise<void> {
    await this.manager(em).insert(RefreshToken, row);
  }

  @GenerateSql({ params: ['h'] })
  refreshTokenByHash(tokenHash: string, em?: EntityManager): Promise<RefreshToken | null> {
    return this.manager(em).getRepository(RefreshToken).findOneBy({ tokenHash });
  }

  /** Revokes the user's live refresh tokens (all, or the one of `tokenHash`); the sessions they started. */
  @GenerateSql({ params: [DUMMY.uuid, DUMMY.date], name: 'all' }, { params: [DUMMY.uuid, DUMMY.date, 'h'], name: 'one' })
  async revokeRefreshTokens(userId: string, now: Date, tokenHash?: string, em?: EntityManager): Promise<{ id: string; expiresAt: Date }[]> {
    const params: unknown[] = [userId, now];
    if (tokenHash !== undefined) params.push(tokenHash);
    const rows = await this.manager(em).query<[{ id: string; expires_at: Date }[], number] | { id: string; expires_at: Date }[]>(
      `UPDATE refresh_tokens SET revoked_at = $2
       WHERE user_id = $1 AND revoked_at IS NULL ${tokenHash !== undefined ? 'AND token_hash = $3' : ''}
       RETURNING id, expires_at`,
      params,
    );
    const list = (Array.isArray(rows[0]) ? rows[0] : rows) as { id: string; expires_at: Date }[];
    return list.map((r) => ({ id: r.id, expiresAt: r.expires_at }));
  }

  /**
   * A returning login in one statement: the nonce claimed (when given) and the identity brought
   * up to date only if the nonce was fresh (absent tokens keep their stored values). `fresh` false:
   * the nonce was used; `userId` null: no such identity yet.
   */
  @GenerateSql(
    { params: [{ tenantId: DUMMY.tenant, provider: 'siwe', subjectId: '0x0' }, DUMMY.date, {}, null], name: 'no nonce' },
    {
      params: [
        { tenantId: DUMMY.tenant, provider: 'siwe', subjectId: '0x0' },
        DUMMY.date,
        {},
        { kind: 'siwe', value: 'n', expiresAt: DUMMY.date },
      ],
      name: 'nonce',
    },
  )
  async touchIdentity(
    id: { tenantId: string; provider: string; subjectId: string },
    now: Date,
    enc: { idToken?: string | null; accessToken?: string | null; refreshToken?: string | null },
    nonce: NonceClaim | null,
    em?: EntityManager,
  ): Promise<{ fresh: boolean; userId: string | null }> {
    const claim = `INSERT INTO used_nonces (tenant_id, kind, nonce, expires_at) VALUES ($1, $8, $9, $10)
       ${CLAIM_EXPIRED_ONLY}`;
    const [step]: { fresh: boolean; user_id: string | null }[] = await this.manager(em).query(
      `WITH n AS (${nonce ? claim : 'SELECT 1'}),
       i AS (
         ${TOUCH_IDENTITY})
       SELECT EXISTS (SELECT 1 FROM n) AS fresh, (SELECT user_id FROM i) AS user_id`,
      [...identityParams(id, now, enc), ...nonceParams(nonce)],
    );
    return { fresh: step.fresh, userId: step.user_id };
  }

  /**
   * A returning login as ONE statement outside any transaction (one round trip, one commit): the
   * nonce claimed (when given), the identity brought up to date and the session's refresh token
   * stored, each step only if the one before it succeeded. Nothing is written when the identity is
   * unknown (`known` false: the caller takes the transactional first-login path, the nonce still
   * unclaimed). `fresh` false: the nonce was used already (nothing written).
   */
  @GenerateSql(
    {
      name: 'nonce',
      params: [
        { tenantId: DUMMY.tenant, provider: 'providerB', subjectId: 's' },
        DUMMY.date,
        {},
        { kind: 'login_token', value: 'n', expiresAt: DUMMY.date },
        { id: DUMMY.uuid, tokenHash: 'h', expiresAt: DUMMY.date },
        [{ ...EXAMPLE_OUTBOX_RECORD, type: 'user.logged_in', payload: { method: 'providerB' } }],
      ],
    },
    {
      name: 'no nonce',
      params: [
        { tenantId: DUMMY.tenant, provider: 'providerA', subjectId: 's' },
        DUMMY.date,
        {},
        null,
        { id: DUMMY.uuid, tokenHash: 'h', expiresAt: DUMMY.date },
      ],
    },
  )
  async returningLogin(
    id: { tenantId: string; provider: string; subjectId: string },
    now: Date,
    enc: { idToken?: string | null; accessToken?: string | null; refreshToken?: string | null },
    nonce: NonceClaim | null,
    refresh: { id: string; tokenHash: string; expiresAt: Date },
    events: OutboxRecord[] = [],
    em?: EntityManager,
  ): Promise<{ known: boolean; fresh: boolean; userId: string | null; deliveries: number }> {
    const params = [...identityParams(id, now, enc), refresh.id, refresh.tokenHash, refresh.expiresAt, ...nonceParams(nonce)];
    // The login's events (the outbox's piece) in the same statement, only when a session was
    // stored, with the user id the statement found: still one round trip, one commit.
    const outbox = events.length
      ? this.outbox.insertPiece(events, params.length + 1, {
          payloadMerge: "jsonb_build_object('userId', (SELECT user_id FROM r))",
          onlyIf: 'EXISTS (SELECT 1 FROM r)',
        })
      : null;
    const claim = `INSERT INTO used_nonces (tenant_id, kind, nonce, expires_at) SELECT $1, $11, $12, $13 WHERE EXISTS (SELECT 1 FROM i)
       ${CLAIM_EXPIRED_ONLY}`;
    // Prepared: parsing and planning this statement cost PostgreSQL twice what running it does (docs/performance.md).
    const [step] = await preparedQuery<{ known: boolean; fresh: boolean; user_id: string | null; deliveries: number }>(
      this.manager(em),
      `WITH i AS (SELECT user_id FROM identities WHERE tenant_id = $1 AND provider = $2 AND subject_id = $3),
       n AS (${nonce ? claim : 'SELECT 1 FROM i'}),
       u AS (
         ${TOUCH_IDENTITY}),
       r AS (
         INSERT INTO refresh_tokens (id, token_hash, user_id, tenant_id, expires_at)
         SELECT $8, $9, u.user_id, $1, $10 FROM u
         RETURNING user_id)${outbox ? `,\n       ${outbox.ctes}` : ''}
       SELECT EXISTS (SELECT 1 FROM i) AS known, EXISTS (SELECT 1 FROM n) AS fresh, (SELECT user_id FROM r) AS user_id,
         ${outbox ? PIECE_DELIVERIES : '0'} AS deliveries`,
      [...params, ...(outbox?.params ?? [])],
    );
    return { known: step.known, fresh: step.fresh, userId: step.user_id, deliveries: step.deliveries };
  }

  /** Links a new identity to its user; false when another login created it meanwhile. */
  @GenerateSql({
    params: [
      {
        tenantId: DUMMY.tenant,
        provider: 'siwe',
        subjectId: '0x0',
        userId: DUMMY.uuid,
        idTokenEnc: null,
        accessTokenEnc: null,
        refreshTokenEnc: null,
        lastLoginAt: DUMMY.date,
      },
    ],
  })
  async insertIdentity(
    row: Pick<
      Identity,
      'tenantId' | 'provider' | 'subjectId' | 'userId' | 'idTokenEnc' | 'accessTokenEnc' | 'refreshTokenEnc' | 'lastLoginAt'
    >,
    em?: EntityManager,
  ): Promise<boolean> {
    const res = await this.manager(em).createQueryBuilder().insert().into(Identity).values(row).orIgnore().returning(['id']).execute();
    return (res.raw as unknown[]).length > 0;
  }

  @GenerateSql({ params: [DUMMY.tenant, 'siwe', '0x0'] })
  findIdentity(tenantId: string, provider: string, subjectId: string, em?: EntityManager): Promise<Identity | null> {
    return this.manager(em).findOneBy(Identity, { tenantId, provider, subjectId });
  }

  /** Deletes the nonces whose tokens can no longer be accepted; how many. */
  @GenerateSql({ params: [DUMMY.date] })
  async purgeNonces(now: Date, em?: EntityManager): Promise<number> {
    const res: [unknown[], number] = await this.manager(em).query('DELETE FROM used_nonces WHERE expires_at < $1', [now]);
    return res[1];
  }
}
