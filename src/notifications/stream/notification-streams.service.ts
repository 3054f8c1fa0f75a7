import { Injectable, Logger, type MessageEvent, type OnModuleDestroy } from '@nestjs/common';
import { Observable, type Subscriber } from 'rxjs';
import { SessionRevocations } from '../../access/session-revocations.js';
import type { AuthUser } from '../../common/auth/request-context.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { CommonErrors } from '../../common/errors/error-catalog.js';
import { DomainEvents } from '../../common/events/domain-events.js';
import { Draining } from '../../common/lifecycle/draining.js';
import { AppConfig } from '../../config/app-config.js';
import { type NotificationFields, toNotificationDto } from '../dto/notification.dto.js';
import { NotificationErrors } from '../notifications.errors.js';
import '../notifications.events.js';
import { NotificationBus, userKey } from './notification-bus.js';
import { NotificationStreamRepository } from './notification-stream.repository.js';
import { formatCursor, parseCursor, type StreamCursor } from './stream-cursor.js';

/** Most notifications one read sends; a client that missed more is told to reload its list (`reset`). */
export const STREAM_BATCH = 200;
/** What an `EventSource` waits before reconnecting (the SSE `retry` field), in ms. */
export const STREAM_RETRY_MS = 3000;
/** Longest wait for the wake-up channel when a stream opens. */
const BUS_READY_TIMEOUT_MS = 5000;

/** The SSE event names. */
export const StreamEvent = {
  Notification: 'notification',
  Ready: 'ready',
  Reset: 'reset',
  SessionEnded: 'session_ended',
} as const;

/** One open stream. */
class Stream {
  subscriber?: Subscriber<MessageEvent>;
  /** Events produced before the response subscribed (the replay, wake-ups meanwhile). */
  readonly early: MessageEvent[] = [];
  lastWrite = Date.now();
  reading = false;
  dirty = false;
  closed = false;
  unsubscribe?: () => void;

  constructor(
    readonly user: AuthUser,
    public cursor: string,
    readonly release: () => void,
  ) {}

  emit(event: MessageEvent): void {
    if (this.closed) return;
    this.lastWrite = Date.now();
    if (this.subscriber) this.subscriber.next(event);
    else this.early.push(event);
  }

  /** Ends the stream (idempotent): the response ends, the slot and the subscription are freed. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe?.();
    this.release();
    this.subscriber?.complete();
  }
}

/**
 * The live notification streams of this process (`GET /v1/user/notifications/stream`, SSE).
 *
 * A stream holds a cursor (a database snapshot, src/notifications/stream/stream-cursor.ts). When
 * the user may have a new notification (a wake-up from NotificationBus, sent by whichever process
 * committed it) the stream reads the rows committed since its cursor and sends them; reads of one
 * stream never overlap (a wake-up during a read makes one more read after it). A reconnecting
 * client sends its last event id and gets exactly the notifications it missed.
 *
 * Writes: Nest's SSE writer waits for the socket to drain; events wait in memory only while a
 * client does not read, and past SSE_MAX_PENDING characters the connection is dropped (the client
 * reconnects and resumes from its last id), so a slow client costs bounded memory.
 *
 * A stream ends when the client leaves, when its session ends (logout, user deleted: checked
 * every tick against the in-memory revocation list every request is checked against), and at
 * shutdown.
 */
@Injectable()
export class NotificationStreamsService implements OnModuleDestroy {
  private readonly logger = new Logger(NotificationStreamsService.name);
  private readonly streams = new Set<Stream>();
  private readonly perUser = new Map<string, number>();
  private readonly perTenant = new Map<string, Set<Stream>>();
  private tick?: NodeJS.Timeout;

  constructor(
    private readonly repo: NotificationStreamRepository,
    private readonly bus: NotificationBus,
    private readonly revocations: SessionRevocations,
    private readonly config: AppConfig,
    events: DomainEvents,
    private readonly draining: Draining,
  ) {
    events.afterCommit('notification.created', (n) => this.bus.publish(userKey(n.tenantId, n.userId)));
    // A stream would hold the shutdown until its grace ends: its client reconnects elsewhere, from its last id.
    draining.onBegin(() => this.closeAll());
  }

  /** Open streams in this process. */
  get open(): number {
    return this.streams.size;
  }

  /**
   * Opens a stream: checks the cursor and the limits, subscribes to wake-ups, reads what was
   * missed, all before the response starts (so every refusal is an ordinary error answer). The
   * returned Observable is the event stream; `signal` aborts when the response is over.
   */
  async openStream(user: AuthUser, lastEventId: string | undefined, signal: AbortSignal): Promise<Observable<MessageEvent>> {
    const cursor = lastEventId === undefined ? undefined : parseCursor(lastEventId);
    if (cursor === null)
      throw new DomainError(NotificationErrors.last_event_id_invalid, 'Last-Event-ID is not an id of this notification stream');
    if (this.revocations.isRevoked(user.id, user.sessionId))
      throw new DomainError(CommonErrors.session_ended, 'The session has ended (logged out, or its user no longer exists); log in again');
    const stream = this.reserve(user);
    const onAbort = () => stream.close();
    signal.addEventListener('abort', onAbort, { once: true });
    // Wake-ups during the start only mark the stream: one read follows it.
    stream.reading = true;
    try {
      stream.unsubscribe = await this.subscribe(stream);
      // The client may have gone while the channel was being joined.
      if (stream.closed) stream.unsubscribe();
      const replayed = await this.start(stream, cursor);
      stream.emit({ type: StreamEvent.Ready, id: stream.cursor, retry: STREAM_RETRY_MS, data: { replayed } });
    } catch (err) {
      stream.close();
      throw err;
    } finally {
      stream.reading = false;
    }
    if (stream.dirty) this.read(stream);
    if (signal.aborted) stream.close();
    this.startTicking();
    return new Observable<MessageEvent>((subscriber) => {
      if (stream.closed) return subscriber.complete();
      stream.subscriber = subscriber;
      for (const e of stream.early.splice(0)) subscriber.next(e);
      return () => {
        signal.removeEventListener('abort', onAbort);
        stream.close();
      };
    });
  }

  onModuleDestroy(): void {
    this.closeAll();
  }

  private closeAll(): void {
    clearInterval(this.tick);
    this.tick = undefined;
    for (const s of [...this.streams]) s.close();
  }

  /**
   * Takes a slot for the user, or refuses past the limits. A full instance is shared fairly
   * between tenants: a tenant holding fewer streams than another takes the oldest stream of the
   * tenant holding most (its client reconnects from its last id, here or elsewhere), so the
   * sign-ups of one tenant can fill an instance only while no other tenant needs it.
   */
  private reserve(user: AuthUser): Stream {
    if (this.draining.active)
      throw new DomainError(CommonErrors.service_unavailable, 'This instance is shutting down; reconnect (another instance answers)');
    const key = userKey(user.tenantId, user.id);
    const held = this.perUser.get(key) ?? 0;
    if (held >= this.config.NOTIFICATION_STREAMS_PER_USER)
      throw new DomainError(
        NotificationErrors.stream_limit_reached,
        `The user already has ${held} notification streams open on this instance, the limit`,
      );
    if (this.streams.size >= this.config.NOTIFICATION_STREAMS_MAX) this.makeRoomFor(user.tenantId);
    this.perUser.set(key, held + 1);
    let tenant = this.perTenant.get(user.tenantId);
    if (!tenant) this.perTenant.set(user.tenantId, (tenant = new Set()));
    let released = false;
    const stream = new Stream(user, '', () => {
      if (released) return;
      released = true;
      this.streams.delete(stream);
      tenant.delete(stream);
      if (tenant.size === 0 && this.perTenant.get(user.tenantId) === tenant) this.perTenant.delete(user.tenantId);
      const n = (this.perUser.get(key) ?? 1) - 1;
      if (n > 0) this.perUser.set(key, n);
      else this.perUser.delete(key);
    });
    this.streams.add(stream);
    tenant.add(stream);
    return stream;
  }

  /** Closes the oldest stream of the tenant holding most, when it holds more than one over `tenantId`'s; else 503. */
  private makeRoomFor(tenantId: string): void {
    const own = this.perTenant.get(tenantId)?.size ?? 0;
    let largest: Set<Stream> | undefined;
    for (const [id, set] of this.perTenant) if (id !== tenantId && set.size > (largest?.size ?? 0)) largest = set;
    if (!largest || largest.size <= own + 1)
      throw new DomainError(
        NotificationErrors.stream_capacity_reached,
        `This instance holds ${this.streams.size} notification streams, its limit, and this tenant holds its share of them`,
      );
    largest.values().next().value!.close();
  }

  private async subscribe(stream: Stream): Promise<() => void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DomainError(CommonErrors.service_unavailable, 'The notification channel is not available; retry later')),
        BUS_READY_TIMEOUT_MS,
      );
    });
    const subscribed = this.bus.subscribe(
      userKey(stream.user.tenantId, stream.user.id),
      () => this.read(stream),
      () => this.read(stream),
    );
    try {
      return await Promise.race([subscribed, timeout]);
    } catch (err) {
      void subscribed.then((unsubscribe) => unsubscribe()).catch(() => undefined);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sets the stream's cursor: now, or the client's, sending what it missed. Returns how many were sent. */
  private async start(stream: Stream, cursor: StreamCursor | undefined): Promise<number> {
    const { tenantId, id: userId } = stream.user;
    if (!cursor) {
      stream.cursor = await this.repo.snapshot();
      return 0;
    }
    let sent = 0;
    if (cursor.partial) {
      // The rest of the batch the client was in the middle of.
      const { from, delivered } = cursor.partial;
      const rest = await this.repo.between(tenantId, userId, from, cursor.snapshot, delivered, STREAM_BATCH);
      rest.forEach((row, i) =>
        stream.emit(
          this.event(
            row,
            i === rest.length - 1
              ? cursor.snapshot
              : formatCursor({ snapshot: cursor.snapshot, partial: { from, delivered: delivered + i + 1 } }),
          ),
        ),
      );
      sent += rest.length;
    }
    stream.cursor = cursor.snapshot;
    const first = await this.repo.since(tenantId, userId, stream.cursor, STREAM_BATCH);
    if (first.future) throw new DomainError(NotificationErrors.last_event_id_invalid, 'Last-Event-ID was not issued by this database');
    return sent + this.send(stream, first);
  }

  /** Reads and sends what the stream's user committed since its cursor (one read at a time per stream). */
  private read(stream: Stream): void {
    if (stream.closed) return;
    if (stream.reading) {
      stream.dirty = true;
      return;
    }
    stream.reading = true;
    void (async () => {
      try {
        do {
          stream.dirty = false;
          const r = await this.repo.since(stream.user.tenantId, stream.user.id, stream.cursor, STREAM_BATCH);
          if (stream.closed) return;
          this.send(stream, r);
        } while (stream.dirty && !stream.closed);
      } catch (err) {
        // The client reconnects after `retry` and resumes from its last id: nothing is lost.
        if (!stream.closed) this.logger.warn(`notification stream closed: ${(err as Error).message}`);
        stream.close();
      } finally {
        stream.reading = false;
      }
    })();
  }

  /** Sends one read's rows (or a `reset` when the client missed more than a batch) and moves the cursor. */
  private send(stream: Stream, r: { snapshot: string; rows: NotificationFields[]; more: boolean }): number {
    const from = stream.cursor;
    stream.cursor = r.snapshot;
    if (r.more) {
      stream.emit({ type: StreamEvent.Reset, id: r.snapshot, data: { reason: 'too_many_missed', limit: STREAM_BATCH } });
      return 0;
    }
    r.rows.forEach((row, i) =>
      stream.emit(
        this.event(row, i === r.rows.length - 1 ? r.snapshot : formatCursor({ snapshot: r.snapshot, partial: { from, delivered: i + 1 } })),
      ),
    );
    return r.rows.length;
  }

  private event(row: NotificationFields, id: string): MessageEvent {
    return { type: StreamEvent.Notification, id, data: toNotificationDto(row) };
  }

  /** One timer for all streams: heartbeats and ended sessions. */
  private startTicking(): void {
    if (this.tick) return;
    const heartbeat = this.config.NOTIFICATION_STREAM_HEARTBEAT_MS;
    this.tick = setInterval(
      () => {
        if (this.streams.size === 0) {
          clearInterval(this.tick);
          this.tick = undefined;
          return;
        }
        const now = Date.now();
        for (const s of this.streams) {
          if (this.revocations.isRevoked(s.user.id, s.user.sessionId)) {
            s.emit({ type: StreamEvent.SessionEnded, id: s.cursor, data: { reason: 'session_ended' } });
            s.close();
          } else if (now - s.lastWrite >= heartbeat) s.emit({ comment: 'heartbeat' });
        }
      },
      Math.min(1000, Math.max(50, Math.floor(heartbeat / 3))),
    ).unref();
  }
}
