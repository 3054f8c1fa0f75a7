import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DATABASE_URL } from '../database/database.module.js';
import { DedicatedConnection } from '../database/pg-connections.js';
import { SessionRevocationsRepository } from './session-revocations.repository.js';
import { UUID_RE } from '../common/validation/uuid.js';

/** The PostgreSQL channel revocations are announced on (the logout transaction, the users trigger). */
export const REVOCATION_CHANNEL = 'cgs_session_revocations';
/** A NOTIFY payload stops at 8000 bytes; past this many ids the instances reload the list instead. */
const MAX_IDS_PER_NOTICE = 150;
/** Name of the LISTEN connection (`DedicatedConnection` shows it as `application_name` `cgs:<name>`). */
export const REVOCATION_LISTENER_NAME = 'session-revocations';
/** While the LISTEN connection is down the list is reloaded this often. */
const POLL_MS = 1000;
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

const ids = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && UUID_RE.test(x)) : []);

/**
 * The sessions that ended before their tokens expire, in this process's memory, so checking a
 * session token costs a map lookup and no database read. The database (`session_revocations`) is
 * the source of truth: loaded at start (only unexpired rows: session tokens live 10 minutes, so the
 * list stays small), kept current by PostgreSQL LISTEN/NOTIFY (sent on commit, so never ahead of
 * the row) on a `DedicatedConnection`, and reloaded every second while that connection is down.
 */
@Injectable()
export class SessionRevocations implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SessionRevocations.name);
  private readonly sessions = new Map<string, number>();
  private readonly users = new Map<string, number>();
  private readonly listener: DedicatedConnection;
  private pollTimer?: NodeJS.Timeout;
  private heartbeatTimer?: NodeJS.Timeout;
  private pruneTimer?: NodeJS.Timeout;
  private reloading?: Promise<void>;

  constructor(
    @Inject(DATABASE_URL) url: string,
    private readonly repo: SessionRevocationsRepository,
  ) {
    this.listener = new DedicatedConnection({
      url,
      name: REVOCATION_LISTENER_NAME,
      connectTimeoutMs: 5000,
      keepConnected: true,
      // LISTEN first, then load: a revocation committed in between is in the load or in a notice.
      onConnect: async (client) => {
        client.on('notification', (msg) => {
          if (msg.channel === REVOCATION_CHANNEL) this.onNotice(msg.payload);
        });
        await client.query(`LISTEN ${REVOCATION_CHANNEL}`);
        await this.reload();
        this.stopPolling();
      },
      onLost: () => this.startPolling(),
    });
  }

  /** Whether a session token of this user and session id must be refused. */
  isRevoked(userId: string, sessionId: string | undefined): boolean {
    return this.users.has(userId) || (sessionId !== undefined && this.sessions.has(sessionId));
  }

  /**
   * Ends these sessions (their refresh tokens revoked in the caller's transaction): recorded and
   * announced to every instance at the commit. Returns what this process must apply after the
   * commit (`apply`).
   */
  async endSessions(em: EntityManager, sessions: { id: string; expiresAt: Date }[]): Promise<RevocationNotice> {
    const { ended, expiresAt } = await this.repo.record(
      sessions.map((s) => s.id),
      sessions.map((s) => s.expiresAt),
      em,
    );
    const announced: RevocationNotice =
      ended.length > MAX_IDS_PER_NOTICE ? { reload: true } : { sessionIds: ended, expiresAt: expiresAt?.getTime() };
    if (ended.length > 0) await this.repo.notify(REVOCATION_CHANNEL, JSON.stringify(announced), em);
    // Forgotten rows are purged now and then (about one logout in a hundred).
    if (Math.random() < 0.01) await this.repo.purge(em);
    return { sessionIds: ended, expiresAt: expiresAt?.getTime() };
  }

  /** Takes in revocations (a notice, or what this process just committed). */
  apply(notice: RevocationNotice): void {
    const until = typeof notice.expiresAt === 'number' && Number.isFinite(notice.expiresAt) ? notice.expiresAt : Date.now() + 11 * 60_000;
    for (const id of ids(notice.sessionIds)) this.sessions.set(id, until);
    for (const id of ids(notice.userIds)) this.users.set(id, until);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.pruneTimer = setInterval(() => this.prune(), 60_000).unref();
    this.heartbeatTimer = setInterval(() => void this.listener.query('SELECT 1', [], 5000).catch(() => undefined), HEARTBEAT_MS).unref();
    // Serve with the list loaded when the database answers; otherwise the poll loads it when it does.
    await this.listener.query('SELECT 1', [], 5000).catch(() => undefined);
  }

  async onModuleDestroy(): Promise<void> {
    for (const t of [this.pollTimer, this.heartbeatTimer, this.pruneTimer]) clearInterval(t);
    this.pollTimer = undefined;
    await this.listener.close();
  }

  private startPolling(): void {
    if (this.pollTimer) return;
    this.logger.warn(`session revocation listener down; reloading every ${POLL_MS} ms until it is back`);
    this.pollTimer = setInterval(() => void this.reload().catch(() => undefined), POLL_MS).unref();
  }

  private stopPolling(): void {
    if (!this.pollTimer) return;
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    this.logger.log('session revocation listener back');
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
        const rows = await this.repo.active();
        for (const r of rows)
          this.apply({
            sessionIds: r.session_id ? [r.session_id] : [],
            userIds: r.user_id ? [r.user_id] : [],
            expiresAt: r.expires_at.getTime(),
          });
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
