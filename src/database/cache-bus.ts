import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CacheFactory } from '../common/cache/cache-factory.js';
import { EVERY_SCOPE } from '../common/cache/read-cache.js';
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
/**
 * The first drop after a quiet spell waits this long for the drops of concurrent writes, so a
 * process under writes sends a NOTIFY per LINGER_MS at most, not one per write.
 */
export const CACHE_BUS_LINGER_MS = 5;
/** Drops waiting for the connection beyond this many are sent as "drop everything" per cache. */
const MAX_PENDING = 10_000;

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
 * database wait for the notification queue's lock). A drop waits CACHE_BUS_LINGER_MS, and while
 * one NOTIFY is in flight the next drops gather, so a burst of writes costs a few statements, not
 * one each.
 *
 * Drops whose NOTIFY failed are sent again once the connection is back. Every reconnection clears
 * this process's caches (drops sent while it was away were missed), and while the bus is not
 * listening, the values whose every change is dropped (leaderboard pages, rankings, a player's own
 * event statuses and quest completions) live READ_CACHE_MS instead of BOARD_CACHE_MS
 * (`CacheFactory.setLinked`). What remains is a process that dies between its commit and its
 * NOTIFY: the others' values then live out their period.
 */
@Injectable()
export class CacheBus implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CacheBus.name);
  private readonly id = randomUUID();
  private readonly connection?: DedicatedConnection;
  private pending = new Map<string, [string, string]>();
  private sending?: Promise<void>;
  private lingering?: NodeJS.Timeout;
  private closing = false;
  private heartbeat?: NodeJS.Timeout;
  private everConnected = false;
  private connected = false;

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
        this.connected = true;
        this.caches.setLinked(true);
        // Drops whose NOTIFY failed with the old connection.
        this.kick();
      },
      onLost: () => {
        this.connected = false;
        this.caches.setLinked(false);
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
    this.closing = true;
    this.flushNow();
    await this.sending;
    await this.connection?.close();
  }

  /** Whether drops are being received (the LISTEN connection is up). */
  get listening(): boolean {
    return this.connected;
  }

  private send(cache: string, scope: string): void {
    if (!this.connection) return;
    this.queue([[cache, scope]]);
    this.kick();
  }

  private kick(): void {
    if (this.pending.size === 0 || this.sending || this.lingering || this.closing) return;
    this.lingering = setTimeout(() => this.flushNow(), CACHE_BUS_LINGER_MS);
  }

  private flushNow(): void {
    clearTimeout(this.lingering);
    this.lingering = undefined;
    if (this.pending.size === 0 || this.sending) return;
    this.sending = this.flush().then((sent) => {
      this.sending = undefined;
      // Drops that came after the last look of a flush that sent everything (a failed one waits
      // for the next drop or the reconnection).
      if (sent) this.kick();
    });
  }

  private queue(drops: [string, string][]): void {
    for (const d of drops) this.pending.set(`${d[0]}\u0000${d[1]}`, d);
    if (this.pending.size <= MAX_PENDING) return;
    // Too many to remember (a long outage under writes): one "drop everything" per cache instead.
    const caches = new Set([...this.pending.values()].map((d) => d[0]));
    this.pending = new Map([...caches].map((c) => [`${c}\u0000${EVERY_SCOPE}`, [c, EVERY_SCOPE]]));
  }

  /** Sends what gathered, then what gathered meanwhile, until nothing is left (true) or a NOTIFY fails (false). */
  private async flush(): Promise<boolean> {
    while (this.pending.size > 0) {
      const batches = this.batches([...this.pending.values()]);
      this.pending = new Map();
      for (let i = 0; i < batches.length; i++) {
        try {
          const payload = JSON.stringify({ from: this.id, drops: batches[i] } satisfies DropNotice);
          await this.connection!.query('SELECT pg_notify($1, $2)', [CACHE_CHANNEL, payload], 5000);
        } catch (err) {
          // Sent again with the next drop or once the connection is back (onConnect).
          this.logger.debug(`cache drops not sent: ${(err as Error).message}`);
          this.queue(batches.slice(i).flat());
          return false;
        }
      }
    }
    return true;
  }

  /** The drops in groups whose NOTIFY payload stays under the limit. */
  private batches(drops: [string, string][]): [string, string][][] {
    const out: [string, string][][] = [];
    let batch: [string, string][] = [];
    let size = 0;
    for (const d of drops) {
      const length = d[0].length + d[1].length + 8;
      if (batch.length > 0 && size + length > MAX_PAYLOAD) {
        out.push(batch);
        batch = [];
        size = 0;
      }
      batch.push(d);
      size += length;
    }
    if (batch.length > 0) out.push(batch);
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
