import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { AppConfig } from '../config/app-config.js';
import { DomainEvents, type DomainEventMap } from '../common/events/domain-events.js';
import { EVENT_CATALOG, PUBLIC_EVENT_TYPES, type PublicEventType } from './event-catalog.js';
import { OutboxRepository, type OutboxRecord } from './outbox.repository.js';

/** Keys in `QueryRunner.data`: the transaction's events not written yet, and where each open savepoint began. */
const BUFFER = 'outboxBuffer';
const MARKS = 'outboxMarks';
const FLUSHED = 'outboxFlushed';
const DELIVERIES = 'outboxDeliveries';

/** What a commit wrote besides its events: how many webhook deliveries. */
export interface CommittedWrites {
  deliveries: number;
}

type Listener = (events: readonly OutboxRecord[], writes: CommittedWrites) => void;

/**
 * Writes every public domain event (src/integrations/event-catalog.ts) to the outbox in the
 * publisher's transaction. Inside a transaction the events are buffered and written in ONE
 * statement just before the outermost COMMIT (`beforeTransactionCommit`), with their webhook
 * deliveries: one round trip per transaction, whatever it published. A savepoint rolled back drops
 * the events published since it began; a failed write fails the commit, so the change and its
 * events commit together or not at all. Outside a transaction (the change has committed) the
 * event is written at once.
 *
 * After the outermost commit, `onCommitted` listeners get the transaction's events and how many
 * webhook deliveries they made: the webhook worker (when there are some) and the NATS sink of this
 * instance start at once instead of at their next poll (others poll).
 */
@Injectable()
export class OutboxWriter implements OnModuleInit {
  /** The owner of its `inTransaction` handlers (`PublishOptions.handledBy` for publishers that write their own outbox rows). */
  static readonly HANDLER = 'outbox';
  private readonly log = new Logger(OutboxWriter.name);
  private readonly listeners: Listener[] = [];
  /**
   * Listeners run in the context the writer was made in, not in that of the request whose commit
   * called them: the deliveries and relays they start are not the request's work (its logs,
   * traces and statement counts).
   */
  private readonly background = new AsyncResource('OutboxWriter');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
    private readonly repo: OutboxRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Whether events are written (`OUTBOX_ENABLED`); a hot path that writes its own piece asks. */
  get enabled(): boolean {
    return this.config.OUTBOX_ENABLED;
  }

  onModuleInit(): void {
    // Disabled: no handler, so publishers see none in the transaction (the purchase's one-statement path).
    if (!this.enabled) return;
    for (const type of PUBLIC_EVENT_TYPES)
      this.events.inTransaction(type, (event, em) => this.record(type, event, em), OutboxWriter.HANDLER);
    this.dataSource.subscribers.push({
      afterTransactionStart: ({ queryRunner: qr }) => {
        ((qr.data[MARKS] as number[] | undefined) ??= []).push(buffer(qr).length);
      },
      beforeTransactionCommit: async ({ queryRunner: qr }) => {
        const marks = qr.data[MARKS] as number[] | undefined;
        if (marks?.length !== 1) return; // a savepoint's release: the events stay buffered
        const pending = buffer(qr);
        if (pending.length === 0) return;
        qr.data[BUFFER] = [];
        qr.data[FLUSHED] = pending;
        qr.data[DELIVERIES] = await this.repo.insert(pending, qr.manager);
      },
      afterTransactionCommit: ({ queryRunner: qr }) => {
        const marks = qr.data[MARKS] as number[] | undefined;
        marks?.pop();
        if (marks?.length) return;
        const flushed = (qr.data[FLUSHED] as OutboxRecord[] | undefined) ?? [];
        const deliveries = (qr.data[DELIVERIES] as number | undefined) ?? 0;
        clear(qr);
        if (flushed.length) this.committed(flushed, { deliveries });
      },
      afterTransactionRollback: ({ queryRunner: qr }) => {
        const marks = qr.data[MARKS] as number[] | undefined;
        const mark = marks?.pop() ?? 0;
        if (marks?.length) buffer(qr).length = mark;
        else clear(qr);
      },
    });
  }

  /** Called with the events of every transaction this instance committed (must not throw: errors are logged). */
  onCommitted(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** An outbox record for the event (its id, and occurred-at from the service clock). */
  build<T extends PublicEventType>(type: T, event: DomainEventMap[T]): OutboxRecord {
    const { tenantId, ...payload } = event as DomainEventMap[T] & { tenantId: string };
    return { id: randomUUID(), tenantId, type, version: EVENT_CATALOG[type].version, occurredAt: this.clock.now(), payload };
  }

  /**
   * Tells the listeners about events that committed. A hot path that writes its events in its own
   * statement (`OutboxRepository.insertPiece`, e.g. the returning login) calls it after that, with
   * the deliveries the statement counted (`outbox_deliveries`).
   */
  committed(events: readonly OutboxRecord[], writes: CommittedWrites): void {
    for (const listener of this.listeners) {
      try {
        this.background.runInAsyncScope(() => listener(events, writes));
      } catch (err) {
        this.log.error({ err }, 'outbox listener failed');
      }
    }
  }

  private async record<T extends PublicEventType>(type: T, event: DomainEventMap[T], em: EntityManager): Promise<void> {
    const row = this.build(type, event);
    const qr = em.queryRunner;
    if (qr?.isTransactionActive && qr.data[MARKS]) {
      buffer(qr).push(row);
      return;
    }
    const deliveries = await this.repo.insert([row], em);
    this.committed([row], { deliveries });
  }
}

function buffer(qr: QueryRunner): OutboxRecord[] {
  return ((qr.data[BUFFER] as OutboxRecord[] | undefined) ??= []);
}

function clear(qr: QueryRunner): void {
  delete qr.data[BUFFER];
  delete qr.data[MARKS];
  delete qr.data[FLUSHED];
  delete qr.data[DELIVERIES];
}
