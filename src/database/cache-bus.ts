import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CacheFactory } from '../common/cache/cache-factory.js';
import { DATABASE_URL } from './database.tokens.js';
import { DedicatedConnection } from './pg-connections.js';

/** The PostgreSQL channel read-cache drops travel on. */
export const CACHE_CHANNEL = 'cgs_cache_drops';
/** Name of the bus's connection (`application_name` `cgs:cache-bus`). */
export const CACHE_BUS_NAME = 'cache-bus';
/** A NOTIFY payload stops at 8000 bytes: drops are sent in payloads of at most this many characters. */
const MAX_PAYLOAD = 7000;
/** A connection that died without a word (failover, network) is noticed by this heartbeat. */
const HEARTBEAT_MS = 15_000;

/** What one NOTIFY carries: the sending process and the [cache, scope] pairs it dropped. */
interface DropNotice {
  from: string;
  drops: [string, string][];
}

const isDrop = (d: unknown): d is [string, string] =>
  Array.isArray(d) && d.length === 2 && typeof d[0] === 'string' && typeof d[1] === 'string';

/**
 * Carries the read-cache drops of this process to every other process on the database (the
 * cluster's workers and other instances) with PostgreSQL LISTEN/NOTIFY, so a write shows in every
 * process's reads within milliseconds instead of READ_CACHE_MS.
 *
 * Drops are sent after the writer's commit (ReadCache drops at the commit), on the bus's own
 * connection, never inside the writer's transaction (a NOTIFY there would make every commit of the
 * database wait for the notification queue's lock). While one NOTIFY is in flight the next drops
 * gather into one payload, so a burst of writes costs a few statements, not one each.
 *
 * It is an accelerator, not the guarantee: a drop lost with the connection is covered by the
 * caches' READ_CACHE_MS expiry, and every reconnection clears this process's caches (drops sent
 * while it was away were missed).
 */
@Injectable()
export class CacheBus implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CacheBus.name);
  private readonly id = randomUUID();
  private readonly connection?: DedicatedConnection;
  private pending = new Map<string, [string, string]>();
  private sending?: Promise<void>;
  private heartbeat?: NodeJS.Timeout;
  private everConnected = false;

  constructor(
    @Inject(DATABASE_URL) url: string,
    private readonly caches: CacheFactory,
  ) {
    if (!caches.enabled) return;
    this.connection = new DedicatedConnection({
      url,
      name: CACHE_BUS_NAME,
      connectTimeoutMs: 5000,
      keepConnected: true,
      onConnect: async (client) => {
        client.on('notification', (msg) => {
          if (msg.channel === CACHE_CHANNEL) this.receive(msg.payload);
        });
        await client.query(`LISTEN ${CACHE_CHANNEL}`);
        // Drops sent while this process was not listening are lost: start from empty caches.
        if (this.everConnected) this.caches.clearHere();
        this.everConnected = true;
      },
    });
    caches.onDrop((cache, scope) => this.send(cache, scope));
  }

  onApplicationBootstrap(): void {
    if (!this.connection) return;
    this.connection.start();
    this.heartbeat = setInterval(() => void this.connection!.query('SELECT 1', [], 5000).catch(() => undefined), HEARTBEAT_MS).unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.sending;
    await this.connection?.close();
  }

  /** Whether drops are being received (the LISTEN connection is up). */
  get listening(): boolean {
    return this.everConnected;
  }

  private send(cache: string, scope: string): void {
    if (!this.connection) return;
    this.pending.set(`${cache}\u0000${scope}`, [cache, scope]);
    this.sending ??= this.flush().finally(() => (this.sending = undefined));
  }

  /** Sends what gathered, then what gathered meanwhile, until nothing is left. */
  private async flush(): Promise<void> {
    while (this.pending.size > 0) {
      const drops = [...this.pending.values()];
      this.pending = new Map();
      for (const payload of this.payloads(drops)) {
        try {
          await this.connection!.query('SELECT pg_notify($1, $2)', [CACHE_CHANNEL, payload], 5000);
        } catch (err) {
          // The other processes see the write when their cached values expire (READ_CACHE_MS).
          this.logger.debug(`cache drops not sent: ${(err as Error).message}`);
        }
      }
    }
  }

  private payloads(drops: [string, string][]): string[] {
    const out: string[] = [];
    let batch: [string, string][] = [];
    let size = 0;
    for (const d of drops) {
      const length = d[0].length + d[1].length + 8;
      if (batch.length > 0 && size + length > MAX_PAYLOAD) {
        out.push(JSON.stringify({ from: this.id, drops: batch } satisfies DropNotice));
        batch = [];
        size = 0;
      }
      batch.push(d);
      size += length;
    }
    if (batch.length > 0) out.push(JSON.stringify({ from: this.id, drops: batch } satisfies DropNotice));
    return out;
  }

  private receive(payload: string | undefined): void {
    let notice: unknown;
    try {
      notice = JSON.parse(payload ?? '');
    } catch {
      return;
    }
    if (typeof notice !== 'object' || notice === null) return;
    const { from, drops } = notice as Partial<DropNotice>;
    if (from === this.id || !Array.isArray(drops)) return;
    for (const d of drops) if (isDrop(d)) this.caches.dropHere(d[0], d[1]);
  }
}
