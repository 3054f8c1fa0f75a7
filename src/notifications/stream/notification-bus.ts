import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { isCluster, newRedis, redisTarget, type RedisTarget } from '../../common/redis/new-redis.js';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config/app-config.js';
import { DATABASE_URL } from '../../database/database.tokens.js';
import { DedicatedConnection } from '../../database/pg-connections.js';

/** The PostgreSQL channel (and Redis channel) the wake-ups travel on. */
export const NOTIFICATION_CHANNEL = 'cgs_notifications';
/** Name of the LISTEN connection (`application_name` `cgs:notification-bus`). */
export const NOTIFICATION_BUS_NAME = 'notification-bus';
/** A NOTIFY payload stops at 8000 bytes: wake-ups go in payloads of at most this many characters. */
const MAX_PAYLOAD = 7000;
/** A LISTEN connection that died without a word (failover, network) is noticed by this heartbeat. */
const HEARTBEAT_MS = 15_000;
/**
 * A wake-up that fails to go out is sent again after 250 ms, then 500 ms, 1 s... at most 4 s
 * apart, and given up after this many attempts in all (about 8 s of waits).
 */
export const WAKE_ATTEMPTS = 6;
const WAKE_RETRY_BASE_MS = 250;
const WAKE_RETRY_MAX_MS = 4000;

/** While Redis is away, how often each stream of the process reads what it may have missed. */
export const REDIS_DOWN_POLL_MS = 2_000;

/**
 * The first wake-up after a quiet spell waits this long for those of concurrent writes, so a
 * process under writes sends a message per LINGER_MS at most, not one per notification.
 */
export const NOTIFICATION_BUS_LINGER_MS = 5;

/**
 * What one message carries: the sending process and the `tenantId:userId` keys to wake. `probe`:
 * a process's message to itself, on a Redis Cluster (see `redis`); no users.
 */
interface WakeNotice {
  from: string;
  users: string[];
  probe?: number;
}

/** How the wake-ups travel between processes. */
export interface NotificationTransport {
  /** Resolves once messages are being received. */
  ready(): Promise<void>;
  publish(payload: string): Promise<void>;
  close(): Promise<void>;
}

export const userKey = (tenantId: string, userId: string): string => `${tenantId}:${userId}`;

/**
 * Tells every process (cluster workers, other instances) whose users have new notifications, so
 * each wakes the streams it holds for them; the streams then read the rows from the database
 * (only ids travel: nothing of a notification passes through PostgreSQL's queue or Redis).
 *
 * PostgreSQL LISTEN/NOTIFY by default, Redis pub/sub when REDIS_URL (or REDIS_CLUSTER_NODES) is set. Sent after the
 * writer's commit (DomainEvents afterCommit), never inside its transaction: a NOTIFY there makes
 * every commit of the database wait for the notification queue's lock. A wake-up waits
 * NOTIFICATION_BUS_LINGER_MS, and while one message is in flight the next wake-ups gather into
 * one. The connection opens on first use, so an instance that neither writes notifications nor
 * serves streams holds none.
 *
 * A message that fails to go out is sent again, with a backoff, a bounded number of times: the
 * other processes' streams would otherwise miss it until the user's next notification. A message
 * lost on the receiving side with its connection is made good by waking every stream when the
 * connection is back (each reads from its cursor, so nothing is lost or doubled).
 */
@Injectable()
export class NotificationBus implements OnModuleDestroy {
  private readonly logger = new Logger(NotificationBus.name);
  private readonly id = randomUUID();
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly resyncs = new Set<() => void>();
  private transport?: NotificationTransport;
  /** Keys waiting to be sent, each with the attempts that already failed for it. */
  private pending = new Map<string, number>();
  private sending?: Promise<void>;
  /** Ends the wait before a retry (at shutdown). */
  private retryNow?: () => void;
  private closed = false;
  /** The last of this process's probes that came back (Redis Cluster). */
  private probeSeen = 0;

  constructor(
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
    private readonly config: AppConfig,
  ) {}

  /** Which transport carries the wake-ups. */
  get kind(): 'postgres' | 'redis' {
    return redisTarget(this.config) ? 'redis' : 'postgres';
  }

  /**
   * Calls `wake` whenever `tenantId:userId` may have new notifications, and `resync` whenever
   * messages may have been missed. Resolves once messages are being received; returns the
   * unsubscribe function.
   */
  async subscribe(key: string, wake: () => void, resync: () => void): Promise<() => void> {
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(wake);
    this.resyncs.add(resync);
    const unsubscribe = () => {
      set.delete(wake);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
      this.resyncs.delete(resync);
    };
    try {
      await this.connect().ready();
    } catch (err) {
      unsubscribe();
      throw err;
    }
    return unsubscribe;
  }

  /** Wakes the streams of this user everywhere (this process at once). */
  publish(key: string): void {
    if (this.closed) return;
    this.wakeHere(key);
    this.pending.set(key, 0);
    this.kick();
  }

  private kick(): void {
    this.sending ??= this.flush().finally(() => {
      this.sending = undefined;
      // Wake-ups that came after the flush's last look.
      if (this.pending.size > 0 && !this.closed) this.kick();
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    // What is waiting for a retry gets one last attempt now.
    this.retryNow?.();
    await this.sending;
    await this.transport?.close();
  }

  private wakeHere(key: string): void {
    for (const wake of this.listeners.get(key) ?? []) wake();
  }

  private resyncHere(): void {
    for (const resync of this.resyncs) resync();
  }

  private connect(): NotificationTransport {
    this.transport ??= this.openTransport();
    return this.transport;
  }

  /** The transport the configuration names. */
  protected openTransport(): NotificationTransport {
    const redis = redisTarget(this.config);
    return redis ? this.redis(redis) : this.postgres();
  }

  /**
   * Sends what gathered, then what gathered meanwhile, until nothing is left. The users of a
   * message that failed wait for the next round, after a backoff; new wake-ups gather with them.
   */
  private async flush(): Promise<void> {
    await this.pause(NOTIFICATION_BUS_LINGER_MS);
    let failedRounds = 0;
    while (this.pending.size > 0) {
      const batch = this.pending;
      this.pending = new Map();
      const failed: string[] = [];
      let error: unknown;
      for (const users of this.batches([...batch.keys()])) {
        try {
          await this.connect().publish(JSON.stringify({ from: this.id, users } satisfies WakeNotice));
        } catch (err) {
          error = err;
          failed.push(...users);
        }
      }
      if (failed.length === 0) {
        failedRounds = 0;
        continue;
      }
      failedRounds++;
      let dropped = 0;
      let retried = 0;
      for (const u of failed) {
        const attempts = batch.get(u)! + 1;
        // A key published again meanwhile is already waiting, with its attempts from zero.
        if (this.pending.has(u)) continue;
        if (attempts >= WAKE_ATTEMPTS || this.closed) dropped++;
        else {
          this.pending.set(u, attempts);
          retried++;
        }
      }
      const message = (error as Error | undefined)?.message;
      if (dropped > 0)
        // The other processes' streams get these notifications with the user's next one, or when
        // their clients reconnect (the rows are in the database).
        this.logger.error(`notification wake-ups of ${dropped} users not sent, given up: ${message}`);
      if (this.pending.size === 0) break;
      const delay = Math.min(WAKE_RETRY_MAX_MS, WAKE_RETRY_BASE_MS * 2 ** (failedRounds - 1));
      this.logger.warn(`notification wake-ups of ${retried} users not sent, retrying in ${delay} ms: ${message}`);
      await this.pause(delay);
    }
  }

  /** Waits `ms`, or less when the bus closes. */
  private pause(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.retryNow = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms).unref();
      this.retryNow = done;
    });
  }

  /** The keys in groups that fit one message. */
  private batches(users: string[]): string[][] {
    const out: string[][] = [];
    let batch: string[] = [];
    let size = 0;
    for (const u of users) {
      if (batch.length > 0 && size + u.length + 3 > MAX_PAYLOAD) {
        out.push(batch);
        batch = [];
        size = 0;
      }
      batch.push(u);
      size += u.length + 3;
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
    const { from, users, probe } = notice as Partial<WakeNotice>;
    if (from === this.id && typeof probe === 'number') this.probeSeen = Math.max(this.probeSeen, probe);
    if (from === this.id || !Array.isArray(users)) return;
    for (const u of users) if (typeof u === 'string') this.wakeHere(u);
  }

  private postgres(): NotificationTransport {
    let everConnected = false;
    let resolveReady!: () => void;
    const ready = new Promise<void>((r) => (resolveReady = r));
    const connection = new DedicatedConnection({
      url: this.databaseUrl,
      name: NOTIFICATION_BUS_NAME,
      connectTimeoutMs: 5000,
      keepConnected: true,
      onConnect: async (client) => {
        client.on('notification', (msg) => {
          if (msg.channel === NOTIFICATION_CHANNEL) this.receive(msg.payload);
        });
        await client.query(`LISTEN ${NOTIFICATION_CHANNEL}`);
        // Wake-ups sent while this process was not listening are lost: every stream reads again.
        if (everConnected) setImmediate(() => this.resyncHere());
        everConnected = true;
        resolveReady();
      },
    });
    connection.start();
    const heartbeat = setInterval(() => void connection.query('SELECT 1', [], 5000).catch(() => undefined), HEARTBEAT_MS).unref();
    return {
      ready: () => ready,
      publish: async (payload) => {
        await connection.query('SELECT pg_notify($1, $2)', [NOTIFICATION_CHANNEL, payload], 5000);
      },
      close: async () => {
        clearInterval(heartbeat);
        await connection.close();
      },
    };
  }

  /**
   * Redis pub/sub. Redis is optional at run time as well: a stream opens without waiting for
   * Redis longer than REDIS_COMMAND_TIMEOUT_MS, a wake-up that cannot go out is retried and then
   * left (see `flush`), and while the subscriber is not connected every stream of this process
   * reads again each REDIS_DOWN_POLL_MS (what other processes wrote meanwhile reaches it then),
   * and once more when it is back.
   *
   * On a Redis Cluster the subscription is one connection to some node, which ioredis moves to
   * another node when it is lost, telling no one, while the cluster client stays `ready`: the
   * messages in between are lost unseen. So each REDIS_DOWN_POLL_MS the process also publishes a
   * probe to itself, and when the last one has not come back, every stream reads again.
   */
  private redis(target: RedisTarget): NotificationTransport {
    const timeoutMs = this.config.REDIS_COMMAND_TIMEOUT_MS;
    const publisher = newRedis(target, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: timeoutMs });
    // The subscriber queues its SUBSCRIBE until it connects, and subscribes again after every reconnection.
    const subscriber = newRedis(target, { maxRetriesPerRequest: null });
    let lastWarning = 0;
    for (const r of [publisher, subscriber])
      r.on('error', (err: Error) => {
        if (Date.now() - lastWarning < 10_000) return;
        lastWarning = Date.now();
        this.logger.warn(`redis: ${err.message}; live streams poll the database until Redis answers`);
      });
    // What was published while this process was not subscribed is lost: every stream reads again
    // (also at the first connection: streams may have opened before it).
    subscriber.on('ready', () => this.resyncHere());
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === NOTIFICATION_CHANNEL) this.receive(message);
    });
    const subscribed = subscriber.subscribe(NOTIFICATION_CHANNEL).then(() => undefined);
    subscribed.catch(() => undefined);
    let probeSent = 0;
    const poll = setInterval(() => {
      if (subscriber.status !== 'ready') this.resyncHere();
      else if (isCluster(subscriber)) {
        if (probeSent > this.probeSeen) this.resyncHere();
        probeSent++;
        const probe = JSON.stringify({ from: this.id, users: [], probe: probeSent } satisfies WakeNotice);
        publisher.publish(NOTIFICATION_CHANNEL, probe).catch(() => undefined);
      }
    }, REDIS_DOWN_POLL_MS).unref();
    return {
      ready: () => Promise.race([subscribed, new Promise<void>((done) => setTimeout(done, timeoutMs).unref())]),
      publish: async (payload) => {
        await publisher.publish(NOTIFICATION_CHANNEL, payload);
      },
      close: async () => {
        clearInterval(poll);
        await Promise.all([publisher, subscriber].map((r) => r.quit().catch(() => r.disconnect())));
      },
    };
  }
}
