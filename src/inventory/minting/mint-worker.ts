import { BackgroundPass } from '../../common/background/background-pass.js';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock.js';
import { AppConfig } from '../../config/app-config.js';
import { NotificationsService } from '../../notifications/notifications.service.js';
import { NotificationType } from '../../notifications/notification-types.js';
import { Metrics } from '../../observability/metrics.js';
import type { AvatarMint } from '../entities/avatar-mint.entity.js';
import { AvatarMintRepository } from '../avatar-mint.repository.js';
import { BlockchainsService } from './blockchains.service.js';
import { isPermanent, MintSender, PermanentMintError } from './mint-sender.js';
import { DomainEvents } from '../../common/events/domain-events.js';

/** Backoff after the n-th failed attempt: 5 s, 10 s, 20 s ... at most 10 minutes. */
export function mintBackoffMs(attempt: number): number {
  return Math.min(5000 * 2 ** Math.max(0, attempt - 1), 10 * 60 * 1000);
}

/**
 * Sends queued avatar mints. In every instance (unless `MINT_WORKER_ENABLED=false`) it polls every
 * `MINT_POLL_INTERVAL_MS` and is also kicked right after a mint request commits. A job is claimed
 * with `FOR UPDATE SKIP LOCKED` in a short transaction that pushes its `next_attempt_at` past the
 * receipt timeout (a lease): a worker that dies mid-job leaves it to be taken up again later, and
 * `MintSender` makes the second attempt find the first one's transaction instead of minting again.
 */
@Injectable()
export class MintWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(MintWorker.name);
  private timer: NodeJS.Timeout | null = null;
  private readonly pass = new BackgroundPass(
    () => this.runOnce(),
    (e) => this.log.error(`mint pass failed: ${e.message}`),
  );

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly mints: AvatarMintRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly blockchains: BlockchainsService,
    private readonly sender: MintSender,
    private readonly notifications: NotificationsService,
    private readonly metrics: Metrics,
    private readonly domainEvents: DomainEvents,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.MINT_WORKER_ENABLED) return;
    this.timer = setInterval(() => this.kick(), this.config.MINT_POLL_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.pass.stop();
  }

  /** Starts a pass in the background (no-op when the worker is disabled; coalesced when one is running). */
  kick(): void {
    if (this.config.MINT_WORKER_ENABLED) this.pass.kick();
  }

  /** A mint request committed: it is counted, and a pass starts at once rather than at the next poll. */
  requested(): void {
    this.metrics.mintJob('requested');
    this.kick();
  }

  /** Processes due jobs one by one until none is due; returns how many were attempted. Tests call it directly. */
  async runOnce(): Promise<number> {
    let n = 0;
    for (;;) {
      if (this.pass.stopped) return n;
      const job = await this.claim();
      if (!job) return n;
      this.metrics.mintJob('sending');
      n++;
      await this.process(job);
    }
  }

  private async claim(): Promise<AvatarMint | null> {
    return this.dataSource.transaction(async (em) => {
      const now = this.clock.now();
      const lease = new Date(now.getTime() + this.config.MINT_RECEIPT_TIMEOUT_MS + 60_000);
      return this.mints.claimDue(now, lease, em);
    });
  }

  private async process(job: AvatarMint): Promise<void> {
    try {
      const chain = this.blockchains.find(job.blockchain);
      if (!chain || chain.chainId !== job.chainId || chain.contractAddress.toLowerCase() !== job.contractAddress.toLowerCase()) {
        throw new PermanentMintError(`blockchain ${job.blockchain} is no longer configured as when the mint was requested`);
      }
      const { txHash } = await this.sender.send(
        { id: job.id, recipient: job.recipient, tokenId: job.tokenId, tokenUri: job.tokenUri, rawTx: job.rawTx, txHash: job.txHash },
        chain,
        this.config.MINT_RECEIPT_TIMEOUT_MS,
        async (signed) => {
          await this.mints.recordSigned(job.id, signed, this.clock.now());
        },
      );
      await this.markMinted(job, txHash);
    } catch (e) {
      const message = ((e as { shortMessage?: string }).shortMessage ?? (e as Error).message ?? String(e)).slice(0, 500);
      const final = isPermanent(e) || job.attempts >= this.config.MINT_MAX_ATTEMPTS;
      this.log.warn(`mint ${job.id} attempt ${job.attempts} failed${final ? ' (final)' : ''}: ${message}`);
      const changed = await this.dataSource.transaction(async (em) => {
        const now = this.clock.now();
        if (final) {
          const failed = await this.mints.markFailed(job.id, message, now, em);
          if (failed) await this.notifyFinished(em, job, 'failed', null);
          return failed;
        }
        await this.mints.retryLater(job.id, message, new Date(now.getTime() + mintBackoffMs(job.attempts)), now, em);
        return true;
      });
      if (changed) this.metrics.mintJob(final ? 'failed' : 'retry');
    }
  }

  /** Records the token (once: a job already minted is left alone) and notifies the user in the same transaction. */
  private async markMinted(job: AvatarMint, txHash: string | null): Promise<void> {
    const minted = await this.dataSource.transaction(async (em) => {
      const now = this.clock.now();
      const changed = await this.mints.markMinted(job.id, txHash, now, em);
      if (changed) {
        await this.notifyFinished(em, job, 'minted', txHash);
        await this.domainEvents.publish(em, 'avatar.minted', {
          tenantId: job.tenantId,
          mintId: job.id,
          communityId: job.communityId,
          userId: job.userId,
          blockchain: job.blockchain,
          tokenId: job.tokenId,
          txHash: txHash ?? job.txHash ?? null,
        });
      }
      return changed;
    });
    if (minted) this.metrics.mintJob('minted');
  }

  private notifyFinished(em: EntityManager, job: AvatarMint, status: 'minted' | 'failed', txHash: string | null) {
    return this.notifications.notify(em, {
      tenantId: job.tenantId,
      userId: job.userId,
      communityId: job.communityId,
      type: NotificationType.MintFinished,
      title: status === 'minted' ? `Your avatar was minted on ${job.blockchain}` : `Minting your avatar on ${job.blockchain} failed`,
      data: { mintId: job.id, status, blockchain: job.blockchain, tokenId: job.tokenId, ...(txHash ? { txDigest: txHash } : {}) },
    });
  }
}
