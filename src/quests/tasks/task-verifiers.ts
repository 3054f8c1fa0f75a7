import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { RateLimitStore } from '../../auth/throttling/rate-limit-store.js';
import { AppConfig } from '../../config/app-config.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { QuestErrors } from '../quests.errors.js';
import type { QuestTaskKind } from './task-kinds.js';
import { GameEventVerifier, QuestRefVerifier, ReferralsVerifier, ResourceVerifier } from './verifiers/local.verifiers.js';
import { OnchainVerifier } from './verifiers/onchain.verifier.js';
import { PartnerVerifier } from './verifiers/partner.verifier.js';
import { SocialVerifier } from './verifiers/social.verifier.js';
import { unavailable, type TaskVerifier, type Verdict, type VerifyInput } from './verifiers/verifier.js';

const MINUTE_MS = 60_000;

/** The per-player and per-community counters of claims and external checks. */
@Injectable()
export class VerificationLimits {
  readonly cacheMs: number;

  constructor(
    private readonly store: RateLimitStore,
    private readonly config: AppConfig,
  ) {
    this.cacheMs = config.QUEST_VERIFIER_CACHE_MS;
  }

  /** Counts one claim or task action of the player; 429 `claims_limited` over the limit. */
  async playerAction(tenantId: string, userId: string): Promise<void> {
    const rec = await this.store.increment(`quest-player:${tenantId}:${userId}`, MINUTE_MS, this.config.QUEST_CLAIMS_PER_MINUTE, MINUTE_MS);
    if (rec.isBlocked)
      throw new DomainError(QuestErrors.claims_limited, `Too many claims; retry in ${rec.timeToBlockExpire} s`, {
        retryAfterSeconds: rec.timeToBlockExpire,
      });
  }

  /** Whether the community may make one more check against another system now. */
  async externalCall(tenantId: string, communityId: string): Promise<boolean> {
    const rec = await this.store.increment(
      `quest-checks:${tenantId}:${communityId}`,
      MINUTE_MS,
      this.config.QUEST_VERIFIER_CALLS_PER_MINUTE,
      1_000,
    );
    return !rec.isBlocked;
  }
}

/**
 * The verifiers of the kinds a claim checks, with the bounds on them: a player's claims per minute
 * (QUEST_CLAIMS_PER_MINUTE), a community's checks against other systems per minute
 * (QUEST_VERIFIER_CALLS_PER_MINUTE), and an external answer that was not "done" kept for
 * QUEST_VERIFIER_CACHE_MS (a player pressing "verify" again is not a new call to Discord). The
 * counters are the login limits' store: Redis when set, so the limits hold across instances.
 */
@Injectable()
export class TaskVerifiers {
  private readonly byKind: ReadonlyMap<QuestTaskKind, TaskVerifier>;
  private readonly recent: LRUCache<string, Verdict>;

  constructor(
    social: SocialVerifier,
    onchain: OnchainVerifier,
    partner: PartnerVerifier,
    gameEvent: GameEventVerifier,
    referrals: ReferralsVerifier,
    resource: ResourceVerifier,
    quest: QuestRefVerifier,
    private readonly limits: VerificationLimits,
  ) {
    this.byKind = new Map<QuestTaskKind, TaskVerifier>(
      [social, onchain, partner, gameEvent, referrals, resource, quest].map((v) => [v.kind, v]),
    );
    this.recent = new LRUCache({ max: 100_000, ttl: Math.max(1, limits.cacheMs) });
  }

  /** Whether a claim checks this kind itself (the others are done by the player's input or a visit). */
  checks(kind: QuestTaskKind): boolean {
    return this.byKind.has(kind);
  }

  /** The verifier's answer, within the community's budget of external checks. */
  async verify(input: VerifyInput): Promise<Verdict> {
    const verifier = this.byKind.get(input.task.kind);
    if (!verifier) return { done: false };
    if (!verifier.external) return verifier.verify(input);
    const key = `${input.task.id}:${input.userId}:${input.period.key}`;
    const kept = this.limits.cacheMs > 0 ? this.recent.get(key) : undefined;
    if (kept) return kept;
    if (!(await this.limits.externalCall(input.tenantId, input.quest.communityId)))
      return unavailable('Too many checks for this community right now; try again in a minute');
    const verdict = await verifier.verify(input);
    if (!verdict.done && this.limits.cacheMs > 0) this.recent.set(key, verdict);
    return verdict;
  }
}
