import { Injectable } from '@nestjs/common';
import { UrlCredentials } from '../../access/url-credentials.js';
import { Clock } from '../../common/clock/clock.js';
import type { AuthUser } from '../../common/auth/request-context.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { randomToken, sha256Hex } from '../../crypto/hashing.js';
import { NotificationErrors } from '../notifications.errors.js';
import { NotificationStreamRepository } from './notification-stream.repository.js';

/** How long a stream ticket may wait before it is used. */
export const STREAM_TICKET_TTL_SECONDS = 60;
/** The query parameter that carries it. */
export const STREAM_TICKET_PARAM = 'ticket';
const TICKET = /^st_[A-Za-z0-9_-]{43}$/;

/**
 * Stream tickets: what a browser's `EventSource` (which cannot send `Authorization`) puts in the
 * stream URL instead of the session token. Random (256 bits), stored hashed, valid
 * STREAM_TICKET_TTL_SECONDS, used once on whichever instance the browser reaches (deleted as it
 * is read), bound to the session that asked for it.
 */
@Injectable()
export class StreamTicketsService {
  constructor(
    private readonly repo: NotificationStreamRepository,
    private readonly clock: Clock,
    urlCredentials: UrlCredentials,
  ) {
    urlCredentials.register(STREAM_TICKET_PARAM, (value) => this.consume(value));
  }

  async issue(user: AuthUser): Promise<{ ticket: string; expiresAt: Date }> {
    const ticket = randomToken('st');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + STREAM_TICKET_TTL_SECONDS * 1000);
    await this.repo.insertTicket({
      tokenHash: sha256Hex(ticket),
      tenantId: user.tenantId,
      userId: user.id,
      sessionId: user.sessionId ?? null,
      expiresAt,
    });
    // Unused tickets are dropped now and then (about one issue in fifty).
    if (Math.random() < 0.02) await this.repo.purgeTickets(now);
    return { ticket, expiresAt };
  }

  /** The user of a ticket, which is used up; 401 `stream_ticket_invalid` when it is not one. */
  async consume(value: unknown): Promise<AuthUser> {
    if (typeof value !== 'string' || !TICKET.test(value))
      throw new DomainError(NotificationErrors.stream_ticket_invalid, 'The stream ticket is malformed');
    const t = await this.repo.consumeTicket(sha256Hex(value), this.clock.now());
    if (!t) throw new DomainError(NotificationErrors.stream_ticket_invalid, 'The stream ticket is unknown, already used or expired');
    return t.session_id ? { id: t.user_id, tenantId: t.tenant_id, sessionId: t.session_id } : { id: t.user_id, tenantId: t.tenant_id };
  }
}
