import { BackgroundPass } from '../common/background/background-pass.js';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { OutboxRepository } from './outbox.repository.js';
import { OutboxWriter } from './outbox.writer.js';

const POLL_MS = 1000;
const BATCH = 200;

/** The subject of an event: `cgs.<tenant id>.<type>` (the type's dot makes it two tokens: `cgs.*.store.>` works). */
export const natsSubject = (tenantId: string, type: string) => `cgs.${tenantId}.${type}`;

/**
 * With NATS_URL set, relays every outbox event to NATS JetStream (stream NATS_STREAM over `cgs.>`,
 * created when missing). Events written since NATS_URL was set wait with `nats_pending`; a pass
 * locks a batch (`SKIP LOCKED`: instances share them), publishes each with its event id as
 * `Nats-Msg-Id`, waits for JetStream's acknowledgements and only then clears the flag, in the same
 * transaction. A crash or a broker outage before that leaves them pending, to be published again:
 * JetStream drops the copy of an id it holds within its duplicate window, consumers dedupe by id
 * beyond it. Without NATS_URL nothing of this runs.
 */
@Injectable()
export class NatsSink implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(NatsSink.name);
  private nc: NatsConnection | null = null;
  /** The set-up of the connection and stream, shared by concurrent callers (forgotten when it fails). */
  private setup: Promise<JetStreamClient> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly pass = new BackgroundPass(
    () => this.runOnce(),
    (e) => this.log.warn(`NATS relay pass failed (events stay pending): ${e.message}`),
  );

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: OutboxRepository,
    private readonly config: AppConfig,
    outbox: OutboxWriter,
  ) {
    if (config.NATS_URL) outbox.onCommitted(() => this.kick());
  }

  onApplicationBootstrap(): void {
    if (!this.config.NATS_URL) return;
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.pass.stop();
    await this.setup?.catch(() => undefined); // a set-up under way (a drain's) opens nc, closed here
    await this.nc?.close().catch(() => undefined);
  }

  kick(): void {
    if (this.config.NATS_URL) this.pass.kick();
  }

  /**
   * Publishes what is pending, then waits for a background pass (kicked by a commit) that may
   * hold some of it under its claim: afterwards everything committed before the call is published.
   */
  async drain(): Promise<void> {
    await this.runOnce();
    await this.pass.idle();
  }

  /** Publishes pending events until none is left (skipping those another pass has claimed). */
  async runOnce(): Promise<void> {
    const js = await this.client();
    for (;;) {
      if (this.pass.stopped) return;
      const n = await this.dataSource.transaction(async (em) => {
        const events = await this.repo.claimNatsPending(BATCH, em);
        if (events.length === 0) return 0;
        await Promise.all(
          events.map((e) =>
            js.publish(
              natsSubject(e.tenantId, e.type),
              JSON.stringify({
                id: e.id,
                type: e.type,
                version: e.version,
                tenantId: e.tenantId,
                occurredAt: e.occurredAt.toISOString(),
                data: e.payload,
              }),
              { msgID: e.id },
            ),
          ),
        );
        await this.repo.markNatsPublished(
          events.map((e) => e.id),
          em,
        );
        return events.length;
      });
      if (n < BATCH) return;
    }
  }

  private client(): Promise<JetStreamClient> {
    this.setup ??= this.connect().catch((e: unknown) => {
      this.setup = null;
      throw e;
    });
    return this.setup;
  }

  private async connect(): Promise<JetStreamClient> {
    // Loaded on first use: a deployment without NATS_URL never loads the clients (idle memory, P7).
    const [{ connect }, { jetstream, jetstreamManager }] = await Promise.all([
      import('@nats-io/transport-node'),
      import('@nats-io/jetstream'),
    ]);
    const nc = await connect({
      servers: this.config.NATS_URL!.split(','),
      name: 'cgs',
      maxReconnectAttempts: -1,
    });
    try {
      const jsm = await jetstreamManager(nc);
      try {
        await jsm.streams.info(this.config.NATS_STREAM);
      } catch {
        await jsm.streams.add({ name: this.config.NATS_STREAM, subjects: ['cgs.>'] });
      }
    } catch (e) {
      // The next pass sets up anew (every second): without the close each would leave one open.
      await nc.close().catch(() => undefined);
      throw e;
    }
    this.nc = nc;
    return jetstream(nc);
  }
}
