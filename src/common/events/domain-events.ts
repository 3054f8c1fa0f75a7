import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * The events of every module, by type. A module declares its own by augmenting this interface
 * in its `<module>.events.ts`:
 *
 *     declare module '../common/events/domain-events.js' {
 *       interface DomainEventMap { 'community.changed': { tenantId: string; communityId: string } }
 *     }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface DomainEventMap {}
export type DomainEventType = Extract<keyof DomainEventMap, string>;

type InTransaction<T extends DomainEventType> = (event: DomainEventMap[T], em: EntityManager) => Promise<void>;
type AfterCommit<T extends DomainEventType> = (event: DomainEventMap[T]) => void;

export interface PublishOptions {
  /**
   * Owners of `inTransaction` handlers whose work the publisher did itself, in its own statement
   * (the store's one-statement purchase writes its outbox rows): those handlers do not run.
   */
  handledBy?: readonly string[];
}

/** Key in `QueryRunner.data`: the events published in the transaction, for after-commit handlers. */
const PENDING = 'domainEventsPending';
type Pending = { type: DomainEventType; event: unknown }[];

/**
 * How a module reacts to another's changes without the two importing each other's services in a
 * circle: the publisher says what happened, inside its transaction; subscribers register by type.
 *
 * - `inTransaction` handlers run during `publish`, with the publisher's entity manager: what they
 *   write commits or rolls back with the change (a notification of a referral). An error fails
 *   the publisher's transaction.
 * - `afterCommit` handlers run once the outermost transaction committed, never after a rollback
 *   (cache invalidation; later webhooks and live streams). They must not throw: an error is logged.
 *
 * Not `@nestjs/event-emitter`: its emitter knows nothing of transactions, and both phases here are
 * defined by the transaction (docs/decisions.md).
 */
@Injectable()
export class DomainEvents {
  private readonly logger = new Logger(DomainEvents.name);
  private readonly during = new Map<DomainEventType, { handler: InTransaction<DomainEventType>; owner?: string }[]>();
  private readonly after = new Map<DomainEventType, AfterCommit<DomainEventType>[]>();

  constructor(@InjectDataSource() dataSource: DataSource) {
    // Only the outermost commit counts (a savepoint release leaves the transaction active).
    dataSource.subscribers.push({
      afterTransactionCommit: ({ queryRunner: qr }) => {
        if (qr.isTransactionActive) return;
        const pending = take(qr);
        for (const { type, event } of pending) this.runAfterCommit(type, event);
      },
      afterTransactionRollback: ({ queryRunner: qr }) => {
        if (!qr.isTransactionActive) take(qr);
      },
    });
  }

  /** `owner` names the handler for publishers that do its work themselves (`PublishOptions.handledBy`). */
  inTransaction<T extends DomainEventType>(type: T, handler: InTransaction<T>, owner?: string): void {
    const list = this.during.get(type) ?? [];
    list.push({ handler: handler as unknown as InTransaction<DomainEventType>, owner });
    this.during.set(type, list);
  }

  afterCommit<T extends DomainEventType>(type: T, handler: AfterCommit<T>): void {
    const list = this.after.get(type) ?? [];
    list.push(handler as unknown as AfterCommit<DomainEventType>);
    this.after.set(type, list);
  }

  /**
   * Whether any of these types has `inTransaction` handlers: a publisher that writes its change in
   * one statement outside a transaction must open one when so (the handlers write with the change),
   * unless it does the work of every one of them itself (`besides`: their owners).
   */
  hasInTransactionHandlers(types: readonly DomainEventType[], besides: readonly string[] = []): boolean {
    return types.some((t) => (this.during.get(t) ?? []).some((h) => h.owner === undefined || !besides.includes(h.owner)));
  }

  /** Says that `event` happened in the transaction of `em` (outside a transaction: it has committed). */
  async publish<T extends DomainEventType>(
    em: EntityManager,
    type: T,
    event: DomainEventMap[T],
    options: PublishOptions = {},
  ): Promise<void> {
    for (const { handler, owner } of this.during.get(type) ?? [])
      if (owner === undefined || !options.handledBy?.includes(owner)) await handler(event, em);
    const qr = em.queryRunner;
    if (!qr?.isTransactionActive) return this.runAfterCommit(type, event);
    ((qr.data[PENDING] as Pending | undefined) ??= []).push({ type, event });
  }

  private runAfterCommit(type: DomainEventType, event: unknown): void {
    for (const handler of this.after.get(type) ?? []) {
      try {
        handler(event as DomainEventMap[DomainEventType]);
      } catch (err) {
        this.logger.error({ err, type }, 'after-commit handler failed');
      }
    }
  }
}

function take(qr: QueryRunner): Pending {
  const pending = (qr.data[PENDING] as Pending | undefined) ?? [];
  delete qr.data[PENDING];
  return pending;
}
