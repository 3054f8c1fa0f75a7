import { Logger } from '@nestjs/common';
import pg from 'pg';
import { type DatabaseHost, primaryLocatorFor, splitHosts } from './primary-locator.js';

/**
 * The connection rule (docs/decisions.md, "Database connections"): every PostgreSQL connection of
 * the process has an `'error'` listener for its whole life. A pg `Client` emits `'error'` when its
 * server goes away (a restart, a failover: `57P01 terminating connection due to administrator
 * command`, a reset socket); with no listener Node turns that into an uncaught exception and the
 * process exits. A connection that failed is logged as a warning and dropped; pools and
 * `DedicatedConnection` make a new one when one is needed. Nothing else is caught: there is no
 * process-wide `uncaughtException` handler.
 */
const log = new Logger('Database');

function describe(err: unknown): string {
  const e = err as { message?: string; code?: string } | undefined;
  return `${e?.message ?? String(err)}${e?.code ? ` (${e.code})` : ''}`;
}

/**
 * pg-pool's `onConnect` hook (`extra.onConnect` of the data source): a permanent listener on every
 * client of the pool from its first moment. pg-pool listens only while a client is idle, and
 * TypeORM attaches its own listener one microtask after it is handed a client; a fast shutdown's
 * FATAL read in the same socket chunk as the last answer fell into that gap and killed the process.
 * The pool drops a failed client itself (idle, or on release, as it is no longer queryable).
 */
export function watchPooledClient(client: pg.ClientBase): void {
  client.on('error', (err) => log.warn(`pooled database connection lost, dropped: ${describe(err)}`));
}

export interface DedicatedConnectionOptions {
  url: string;
  /** Shown as `application_name` and in the log. */
  name: string;
  /** Limit of a connection attempt (ms). */
  connectTimeoutMs?: number;
  /** Run on every new connection before it is used, e.g. `LISTEN channel`. */
  onConnect?: (client: pg.Client) => Promise<void>;
  /** Keep a connection open at all times (e.g. for `LISTEN`): reconnect after a loss, with backoff, instead of on the next use. */
  keepConnected?: boolean;
  /** Called when the connection is lost or a connection attempt fails (e.g. to fall back to polling until `onConnect` runs again). */
  onLost?: (err?: unknown) => void;
}

/**
 * One connection of its own, outside the request pool, that heals itself: for the readiness probe
 * (it must answer while the pool is exhausted) and for `LISTEN` (notifications arrive on one
 * session). The rule above applies: an `'error'` listener from creation, a failed connection is
 * dropped and a new one made on the next `query` (or at once, with backoff, when `keepConnected`).
 */
export class DedicatedConnection {
  private connected?: pg.Client;
  private connecting?: Promise<pg.Client>;
  private retry?: NodeJS.Timeout;
  private backoffMs = 0;
  private failing = false;
  private closed = false;
  /** Clients that emitted 'error' or ended (an error can come before the client is current). */
  private readonly broken = new WeakSet<pg.Client>();
  private readonly log: Logger;

  constructor(private readonly options: DedicatedConnectionOptions) {
    this.log = new Logger(`Database:${options.name}`);
  }

  /** Connects now (and, with `keepConnected`, keeps trying until it succeeds). */
  start(): void {
    this.client().catch(() => undefined);
  }

  /**
   * Runs one statement on the connection, connecting first when there is none. With `timeoutMs`
   * a statement that takes longer fails and its connection is dropped (it may still be busy).
   */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
    timeoutMs?: number,
  ): Promise<pg.QueryResult<R>> {
    const client = await this.client();
    try {
      return await client.query<R>({ text, values, ...(timeoutMs ? { query_timeout: timeoutMs } : {}) } as pg.QueryConfig);
    } catch (err) {
      if (this.broken.has(client) || /Query read timeout/.test((err as Error).message)) this.lost(client, err);
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.connected ?? (await this.connecting?.catch(() => undefined));
    this.connected = undefined;
    await client?.end().catch(() => undefined);
  }

  private client(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error(`${this.options.name}: connection closed`));
    if (this.connected) return Promise.resolve(this.connected);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    // A multi-host URL: this connection goes to the primary (LISTEN hears no NOTIFY on a standby).
    const locator = primaryLocatorFor(this.options.url);
    let client: pg.Client | undefined;
    let host: DatabaseHost | undefined;
    try {
      host = await locator?.primary();
      client = new pg.Client({
        connectionString: host ? splitHosts(this.options.url).urlFor(host) : this.options.url,
        application_name: `cgs:${this.options.name}`,
        connectionTimeoutMillis: this.options.connectTimeoutMs ?? 2000,
      });
      const current = client;
      // Errors while connecting also reject `connect()`; afterwards they drop the connection.
      current.on('error', (err) => {
        this.broken.add(current);
        this.lost(current, err);
      });
      current.on('end', () => {
        this.broken.add(current);
        this.lost(current);
      });
      await current.connect();
      await this.options.onConnect?.(current);
      if (this.closed) throw new Error(`${this.options.name}: connection closed`);
      if (this.broken.has(current)) throw new Error(`${this.options.name}: connection lost while connecting`);
    } catch (err) {
      client?.end().catch(() => undefined);
      if (host) locator?.forget(host);
      if (!this.failing) this.log.warn(`cannot connect: ${describe(err)}`);
      this.failing = true;
      if (!this.closed) this.options.onLost?.(err);
      this.reconnectLater();
      throw err;
    }
    if (this.failing) this.log.log('connected again');
    this.failing = false;
    this.backoffMs = 0;
    this.connected = client;
    return client;
  }

  /** `client` failed or ended: drop it (if it is still the current one) and reconnect when asked to. */
  private lost(client: pg.Client, err?: unknown): void {
    if (this.connected !== client) return;
    this.connected = undefined;
    client.end().catch(() => undefined);
    if (!this.closed) {
      this.log.warn(`connection lost, dropped: ${err ? describe(err) : 'closed by the server'}`);
      this.options.onLost?.(err);
    }
    this.reconnectLater();
  }

  private reconnectLater(): void {
    if (!this.options.keepConnected || this.closed) return;
    this.backoffMs = Math.min(Math.max(this.backoffMs * 2, 250), 10_000);
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.start(), this.backoffMs);
    this.retry.unref();
  }
}
