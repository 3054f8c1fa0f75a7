import { OutboxWriter } from '../integrations/outbox.writer.js';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { EncryptionService } from '../crypto/encryption.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { ReferralsService } from '../users/referrals.service.js';
import { UsersService } from '../users/users.service.js';
import { AuthErrors } from './auth.errors.js';
import { AuthRepository } from './auth.repository.js';
import type { Identity } from './entities/identity.entity.js';
import { NonceService, type NonceKind } from './nonce.service.js';
import { SessionTokenService, type SessionResult } from './session-token.service.js';
import { DomainEvents } from '../common/events/domain-events.js';

export type IdentityProvider = 'providerA' | 'providerB' | 'providerC' | 'providerD' | 'siwe';
type TokenField = 'idToken' | 'accessToken' | 'refreshToken';

export interface IdentityLogin {
  tenantId: string;
  provider: IdentityProvider;
  subjectId: string;
  /** Desired handle of a new user (made unique). */
  handle: string;
  /** Provider OAuth tokens to keep (encrypted); absent ones keep their stored value. */
  tokens?: Partial<Record<TokenField, string>>;
  /** Recorded as the sign-up referrer when this login creates the user. */
  referrerHandle?: string;
  /** One-time value consumed in the same transaction (replay protection). */
  nonce?: { kind: NonceKind; value: string; expiresAt: Date };
  /** Runs inside the transaction once the user is known (wallet creation, account rules). */
  afterUser?: (em: EntityManager, user: { id: string; created: boolean }) => Promise<void>;
}

class IdentityRace extends Error {}

/**
 * Logs in through an external identity `(tenant, provider, subjectId)`: the first login creates
 * the user (and records the referrer), later ones find it. Everything, including the nonce and
 * the session, happens in one transaction.
 */
@Injectable()
export class IdentityLoginService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly encryption: EncryptionService,
    private readonly users: UsersService,
    private readonly referrals: ReferralsService,
    private readonly nonces: NonceService,
    private readonly sessions: SessionTokenService,
    private readonly repo: AuthRepository,
    private readonly domainEvents: DomainEvents,
    private readonly outbox: OutboxWriter,
  ) {}

  async login(input: IdentityLogin): Promise<SessionResult> {
    // The ciphertexts are bound to (tenant, provider, subject), all known before any read. A token
    // sent again unchanged (most logins) keeps the ciphertext this process made for it.
    const enc: Record<TokenField, string | null> = { idToken: null, accessToken: null, refreshToken: null };
    for (const field of ['idToken', 'accessToken', 'refreshToken'] as const) {
      const value = input.tokens?.[field];
      if (value) enc[field] = await this.encryption.encryptRepeated(value, tokenContext(input, field));
    }
    // Most logins are returning ones: one statement, no transaction. A login with work of its own
    // inside the transaction (afterUser) and a first login take the transactional path.
    if (!input.afterUser) {
      const session = await this.returningLogin(input, enc);
      if (session) return session;
    }
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.dataSource.transaction((em) => this.loginIn(em, input, enc));
      } catch (e) {
        // Two first logins of the same identity at once: the loser retries and finds the winner's user.
        if (e instanceof IdentityRace && attempt < 2) continue;
        throw e;
      }
    }
  }

  /** A login of a known identity in one statement (`AuthRepository.returningLogin`); null when the identity is new. */
  private async returningLogin(input: IdentityLogin, enc: Record<TokenField, string | null>): Promise<SessionResult | null> {
    const now = this.clock.now();
    const session = this.sessions.prepareSession();
    // Its event is written by the login's one statement (the user id filled in there).
    const event = this.outbox.build('user.logged_in', { tenantId: input.tenantId, userId: '', method: input.provider });
    const events = this.outbox.enabled ? [event] : [];
    const step = await this.repo.returningLogin(identityKey(input), now, enc, nonceClaim(input), session, events);
    if (!step.known) return null;
    if (!step.fresh) throw replayed(input);
    if (!step.userId) throw new Error('returning login stored no session');
    if (events.length)
      this.outbox.committed([{ ...event, payload: { ...event.payload, userId: step.userId } }], { deliveries: step.deliveries });
    if (input.nonce) await this.nonces.purgeSometimes(this.dataSource.manager, now);
    return this.sessions.issue(step.userId, input.tenantId, session);
  }

  private async loginIn(em: EntityManager, input: IdentityLogin, enc: Record<TokenField, string | null>): Promise<SessionResult> {
    const now = this.clock.now();
    // The nonce claimed and, if another login created the identity since `returningLogin` looked,
    // that identity brought up to date, only if the nonce was fresh (absent tokens keep their values).
    const step = await this.repo.touchIdentity(identityKey(input), now, enc, nonceClaim(input), em);
    if (!step.fresh) throw replayed(input);
    if (input.nonce) await this.nonces.purgeSometimes(em, now);

    let userId = step.userId;
    let created = false;
    if (!userId) {
      // The first login of this identity: a new user.
      const user = await this.users.create(em, { tenantId: input.tenantId, handle: input.handle.trim() || 'user' });
      const linked = await this.repo.insertIdentity(
        {
          tenantId: input.tenantId,
          provider: input.provider,
          subjectId: input.subjectId,
          userId: user.id,
          idTokenEnc: enc.idToken,
          accessTokenEnc: enc.accessToken,
          refreshTokenEnc: enc.refreshToken,
          lastLoginAt: now,
        },
        em,
      );
      if (!linked) throw new IdentityRace();
      userId = user.id;
      created = true;
      if (input.referrerHandle) await this.recordReferrer(em, input.tenantId, user.id, input.referrerHandle);
    }

    await input.afterUser?.(em, { id: userId, created });
    await this.domainEvents.publish(em, 'user.logged_in', { tenantId: input.tenantId, userId, method: input.provider });
    return this.sessions.startSession(userId, input.tenantId, em);
  }

  /** Unknown handles are ignored (a stale referral link must not block a sign-up); self-referral is a 400. */
  private async recordReferrer(em: EntityManager, tenantId: string, userId: string, referrerHandle: string): Promise<void> {
    const referrer = await this.users.findByHandle(tenantId, referrerHandle.trim(), em);
    if (!referrer) return;
    await this.referrals.record(em, { tenantId, referrerId: referrer.id, referredId: userId, communityId: null });
  }

  /** The stored provider tokens of an identity, decrypted (for modules that call the provider). */
  async providerTokens(
    tenantId: string,
    provider: IdentityProvider,
    subjectId: string,
  ): Promise<Partial<Record<TokenField, string>> | null> {
    const identity = await this.repo.findIdentity(tenantId, provider, subjectId);
    if (!identity) return null;
    const out: Partial<Record<TokenField, string>> = {};
    for (const field of ['idToken', 'accessToken', 'refreshToken'] as const) {
      const enc = identity[`${field}Enc`];
      if (enc) out[field] = await this.encryption.decrypt(enc, tokenContext(identity, field));
    }
    return out;
  }
}

const identityKey = (input: IdentityLogin) => ({ tenantId: input.tenantId, provider: input.provider, subjectId: input.subjectId });
const nonceClaim = (input: IdentityLogin) =>
  input.nonce ? { kind: input.nonce.kind, value: input.nonce.value, expiresAt: input.nonce.expiresAt } : null;

/** The nonce of this login was used already. */
const replayed = (input: IdentityLogin): DomainError =>
  input.nonce!.kind === 'siwe'
    ? new DomainError(AuthErrors.siwe_nonce_replayed, 'This SIWE nonce was already used; sign a message with a fresh nonce')
    : new DomainError(AuthErrors.login_token_replayed, 'This token was already used to log in');

/** Binds each ciphertext to its identity and field, so it cannot be moved to another row or column. */
export const tokenContext = (i: Pick<Identity, 'tenantId' | 'provider' | 'subjectId'>, field: TokenField) =>
  `identity:${i.tenantId}:${i.provider}:${i.subjectId}:${field}`;
