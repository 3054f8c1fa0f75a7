import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { DATABASE_URL } from '../../database/database.module.js';

/** The PostgreSQL channel revocations are announced on (the logout transaction, the users trigger). */
export const REVOCATION_CHANNEL = 'cgs_session_revocations';
/** The LISTEN connection's `application_name` (operators and tests find it in pg_stat_activity). */
export const REVOCATION_LISTENER_NAME = 'cgs-session-revocations';
/** While the LISTEN connection is down the list is reloaded this often. */
const POLL_MS = 1000;
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 10_000;
/** A connection that died without a word (failover, network) is noticed by this heartbeat. */
const HEARTBEAT_MS = 15_000;

/** What a NOTIFY on the channel carries: ended sessions, deleted users, or "reload, too many to say". */
export interface RevocationNotice {
  sessionIds?: string[];
  userIds?: string[];
  /** When the entries may be forgotten (ms since the epoch): the last token they refuse has expired. */
  expiresAt?: number;
  reload?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ids = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && UUID.test(x)) : []);

/**
 * The sessions that ended before their tokens expire, in this process's memory, so checking a
 * session token costs a map lookup and no database read. The database (`session_revocations`) is
 * the source of truth: loaded at start (only unexpired rows: session tokens live 10 minutes, so the
 * list stays small), kept current by PostgreSQL LISTEN/NOTIFY (sent on commit, so never ahead of
 * the row), and reloaded every second while the LISTEN connection is down, which is never fatal:
 * it has an error listener and is replaced with backoff.
 */
@Injectable()
export class SessionRevocations implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SessionRevocations.name);
  private readonly sessions = new Map<string, number>();
  private readonly users = new Map<string, number>();
  private listener?: pg.Client;
  private stopped = false;
  private retryMs = RETRY_MIN_MS;
  private reconnectTimer?: NodeJS.Timeout;
  private pollTimer?: NodeJS.Timeout;
  private heartbeatTimer?: NodeJS.Timeout;
  private pruneTimer?: NodeJS.Timeout;
  private reloading?: Promise<void>;

  constructor(
    @Inject(DATABASE_URL) private readonly url: string,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Whether a session token of this user and session id must be refused. */
  isRevoked(userId: string, sessionId: string | undefined): boolean {
    return this.users.has(userId) || (sessionId !== undefined && this.sessions.has(sessionId));
  }

  /** Takes in revocations (a notice, or what this process just committed). */
  apply(notice: RevocationNotice): void {
    const until = typeof notice.expiresAt === 'number' && Number.isFinite(notice.expiresAt) ? notice.expiresAt : Date.now() + 11 * 60_000;
    for (const id of ids(notice.sessionIds)) this.sessions.set(id, until);
    for (const id of ids(notice.userIds)) this.users.set(id, until);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.pruneTimer = setInterval(() => this.prune(), 60_000).unref();
    await this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const t of [this.reconnectTimer, this.pollTimer, this.heartbeatTimer, this.pruneTimer]) clearTimeout(t);
    const l = this.listener;
    this.listener = undefined;
    await l?.end().catch(() => undefined);
  }

  /** LISTEN first, then load: a revocation committed in between is in the load or in a notice. */
  private async connect(): Promise<void> {
    this.reconnectTimer = undefined;
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url, application_name: REVOCATION_LISTENER_NAME, connectionTimeoutMillis: 5000, query_timeout: 5000, keepAlive: true });
    let down = false;
    const onDown = (err?: unknown) => {
      if (down) return;
      down = true;
      if (this.listener === client) this.listener = undefined;
      clearInterval(this.heartbeatTimer);
      client.end().catch(() => undefined);
      if (this.stopped) return;
      if (!this.pollTimer) this.logger.warn(`session revocation listener down (${err instanceof Error ? err.message : 'connection ended'}); reloading every ${POLL_MS} ms until it is back`);
      this.pollTimer ??= setInterval(() => void this.reload().catch(() => undefined), POLL_MS).unref();
      this.reconnectTimer ??= setTimeout(() => void this.connect(), this.retryMs).unref();
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    };
    client.on('error', onDown);
    client.on('end', () => onDown());
    client.on('notification', (msg) => {
      if (msg.channel === REVOCATION_CHANNEL) this.onNotice(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${REVOCATION_CHANNEL}`);
      await this.reload();
    } catch (err) {
      onDown(err);
      return;
    }
    if (down) return;
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    this.retryMs = RETRY_MIN_MS;
    if (this.pollTimer) this.logger.log('session revocation listener back');
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    this.heartbeatTimer = setInterval(() => void client.query('SELECT 1').catch(onDown), HEARTBEAT_MS).unref();
  }

  private onNotice(payload: string | undefined): void {
    let notice: RevocationNotice;
    try {
      notice = JSON.parse(payload ?? '') as RevocationNotice;
    } catch {
      notice = { reload: true };
    }
    if (notice && typeof notice === 'object' && !notice.reload) this.apply(notice);
    else void this.reload().catch(() => undefined);
  }

  /** Every unexpired revocation from the database (one reload at a time). */
  private reload(): Promise<void> {
    this.reloading ??= (async () => {
      try {
        const rows: { session_id: string | null; user_id: string | null; expires_at: Date }[] = await this.dataSource.query(
          'SELECT session_id, user_id, expires_at FROM session_revocations WHERE expires_at > now()',
        );
        for (const r of rows) this.apply({ sessionIds: r.session_id ? [r.session_id] : [], userIds: r.user_id ? [r.user_id] : [], expiresAt: r.expires_at.getTime() });
      } finally {
        this.reloading = undefined;
      }
    })();
    return this.reloading;
  }

  /** Forgets entries whose tokens have all expired (token expiry is checked against the system time). */
  private prune(): void {
    const now = Date.now();
    for (const map of [this.sessions, this.users]) for (const [id, until] of map) if (until <= now) map.delete(id);
  }
}
