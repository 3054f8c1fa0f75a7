import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { hashPassword, verifyPassword } from '../crypto/hashing.js';
import { DomainError } from '../common/errors/domain-error.js';
import { LoginRateLimiter } from './throttling/login-rate-limiter.service.js';
import { UsersService } from '../users/users.service.js';
import { AuthErrors } from './auth.errors.js';
import { SessionTokenService, type SessionResult } from './session-token.service.js';
import { DomainEvents } from '../common/events/domain-events.js';

@Injectable()
export class PasswordAuthService {
  /** Compared against when the username does not exist, so both paths cost the same. */
  private dummyHash?: Promise<string>;

  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly sessions: SessionTokenService,
    private readonly limiter: LoginRateLimiter,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly domainEvents: DomainEvents,
  ) {}

  async register(tenantId: string, username: string, password: string, client: string): Promise<SessionResult> {
    const attempt = await this.limiter.hitAccount(tenantId, 'username', username, client);
    const passwordHash = await hashPassword(password, this.config.PASSWORD_SCRYPT_COST);
    const session = await this.dataSource.transaction(async (em) => {
      const user = await this.users.create(em, { tenantId, username, handle: username, handleChosen: true, passwordHash });
      await this.domainEvents.publish(em, 'user.logged_in', { tenantId, userId: user.id, method: 'password' });
      return this.sessions.startSession(user.id, tenantId, em);
    });
    await attempt.succeeded();
    return session;
  }

  async login(tenantId: string, username: string, password: string, client: string): Promise<SessionResult> {
    const attempt = await this.limiter.hitAccount(tenantId, 'username', username, client);
    const user = await this.users.findByUsername(tenantId, username);
    const stored = user?.passwordHash ?? (await (this.dummyHash ??= hashPassword('dummy-password', this.config.PASSWORD_SCRYPT_COST)));
    const ok = await verifyPassword(password, stored);
    if (!user?.passwordHash || !ok) {
      throw new DomainError(AuthErrors.invalid_credentials, 'Invalid username or password');
    }
    // The session and its event in one transaction (the login is bound by the password hash, not by this).
    const session = await this.dataSource.transaction(async (em) => {
      await this.domainEvents.publish(em, 'user.logged_in', { tenantId, userId: user.id, method: 'password' });
      return this.sessions.startSession(user.id, tenantId, em);
    });
    await attempt.succeeded();
    return session;
  }
}
