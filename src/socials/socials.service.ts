import { ReplicaReads } from '../database/replica-reads.js';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { EncryptionService } from '../crypto/encryption.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { AppConfig } from '../config/app-config.js';
import type { AdminSocialDto, LinkSocialDto, PublicSocialDto, SocialDto, UpdateSocialDto } from './dto/social.dto.js';
import { UsersService } from '../users/users.service.js';
import { uniqueViolation } from '../database/repository.js';
import type { SocialAccount } from './entities/social-account.entity.js';
import { SocialsRepository } from './socials.repository.js';
import { allowedSocialAccountTypes } from './social-account-types.js';
import { SocialErrors } from './socials.errors.js';
import { DomainEvents } from '../common/events/domain-events.js';

type TokenColumn = 'userToken' | 'refreshToken';
type Changes = Omit<UpdateSocialDto, 'socialId'>;

/** Linked social accounts: one account belongs to one user of a tenant; tokens encrypted at rest. */
@Injectable()
export class SocialsService {
  private readonly accountTypes: ReadonlySet<string>;

  constructor(
    private readonly repo: SocialsRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly encryption: EncryptionService,
    config: AppConfig,
    private readonly domainEvents: DomainEvents,
    private readonly users: UsersService,
    private readonly replicas: ReplicaReads,
  ) {
    this.accountTypes = allowedSocialAccountTypes(config.SOCIAL_ACCOUNT_TYPES);
  }

  /** The supported account types, sorted. */
  supportedAccountTypes(): string[] {
    return [...this.accountTypes].sort();
  }

  async listSocials(tenantId: string, userId: string): Promise<SocialDto[]> {
    const rows = await this.repo.ofUser(tenantId, userId, {});
    return rows.map(toDto);
  }

  /** The player's accounts for support (management): no token, nor whether one is stored. 404 for an unknown user. */
  async adminSocials(tenantId: string, userId: string): Promise<AdminSocialDto[]> {
    await this.users.getById(tenantId, userId);
    const rows = await this.repo.ofUser(tenantId, userId, {});
    return rows.map((s) => ({
      id: s.id,
      accountType: s.accountType,
      subjectId: s.subjectId,
      handle: s.handle,
      server: s.server,
      public: s.isPublic,
      linkedAt: s.createdAt.toISOString(),
    }));
  }

  async listSocialsOfType(tenantId: string, userId: string, type: string): Promise<SocialDto[]> {
    this.assertSupported(type);
    const rows = await this.repo.ofUser(tenantId, userId, { accountType: type });
    return rows.map(toDto);
  }

  /** The user's public accounts, for their public profile. */
  async publicSocials(tenantId: string, userId: string): Promise<PublicSocialDto[]> {
    // A public page tolerates lag: a replica's when one is fresh enough.
    const rows = await this.replicas.read((em) => this.repo.ofUser(tenantId, userId, { isPublic: true }, em));
    return rows.map((s) => ({ accountType: s.accountType, subjectId: s.subjectId, handle: s.handle, server: s.server }));
  }

  /**
   * Links an account. Linking an account the user already holds updates it in place (same id);
   * an account held by another user of the tenant is a 409. Concurrent links of one account by two
   * users: the unique index lets exactly one win.
   */
  async linkSocial(tenantId: string, userId: string, dto: LinkSocialDto): Promise<SocialDto> {
    this.assertSupported(dto.accountType);
    return this.dataSource.transaction(async (em) => {
      const id = randomUUID();
      const row = this.repo.build({
        id,
        tenantId,
        userId,
        accountType: dto.accountType,
        subjectId: dto.subjectId,
        isPublic: dto.public,
      });
      await this.apply(row, dto);
      const linked = (s: { id: string }) =>
        this.domainEvents.publish(em, 'social.linked', {
          tenantId,
          socialId: s.id,
          userId,
          accountType: dto.accountType,
          subjectId: dto.subjectId,
        });
      try {
        const inserted = await this.repo.insert(row, em);
        await linked(inserted);
        return toDto(inserted);
      } catch (e) {
        if (uniqueViolation(e) !== 'uq_social_accounts_subject') throw e;
      }

      const existing = await this.repo.lockBySubject(tenantId, dto.accountType, dto.subjectId, em);
      if (!existing || existing.userId !== userId) {
        throw new DomainError(SocialErrors.social_account_taken, `This ${dto.accountType} account is already linked to another user`);
      }
      existing.isPublic = dto.public;
      await linked(existing);
      return this.saveChanges(em, existing, dto);
    });
  }

  async updateSocial(tenantId: string, userId: string, dto: UpdateSocialDto): Promise<SocialDto> {
    return this.dataSource.transaction(async (em) => {
      const row = await this.ownedOrFail(em, tenantId, userId, dto.socialId);
      if (dto.public !== undefined) row.isPublic = dto.public;
      return this.saveChanges(em, row, dto);
    });
  }

  async deleteSocial(tenantId: string, userId: string, id: string): Promise<void> {
    if (!(await this.repo.delete(tenantId, userId, id)))
      throw new DomainError(SocialErrors.social_not_found, `No linked social account ${id}`);
  }

  /** Decrypts a stored token, for server-side use by other modules (never for responses). */
  async readToken(tenantId: string, userId: string, id: string, which: TokenColumn): Promise<string | null> {
    const row = await this.repo.findOwned(tenantId, userId, id);
    if (!row) throw new DomainError(SocialErrors.social_not_found, `No linked social account ${id}`);
    const cipher = which === 'userToken' ? row.userTokenEncrypted : row.refreshTokenEncrypted;
    return cipher === null ? null : this.encryption.decrypt(cipher, tokenContext(row.id, which));
  }

  private async saveChanges(em: EntityManager, row: SocialAccount, changes: Changes): Promise<SocialDto> {
    await this.apply(row, changes);
    return toDto(await this.repo.save(row, em));
  }

  private async ownedOrFail(em: EntityManager, tenantId: string, userId: string, id: string): Promise<SocialAccount> {
    // Another user's id is a 404 as well: the answer does not reveal that it exists.
    const row = await this.repo.lockOwned(tenantId, userId, id, em);
    if (!row) throw new DomainError(SocialErrors.social_not_found, `No linked social account ${id}`);
    return row;
  }

  /** Copies the given fields onto the row: `undefined` keeps a field, `null` clears it. */
  private async apply(row: SocialAccount, c: Changes): Promise<void> {
    if (c.handle !== undefined) row.handle = c.handle;
    if (c.server !== undefined) row.server = c.server;
    if (c.expiryDate !== undefined) row.expiryDate = c.expiryDate === null ? null : new Date(c.expiryDate);
    if (c.extraArgs !== undefined) row.extraArgs = c.extraArgs;
    if (c.createdAt !== undefined) row.providerCreatedAt = c.createdAt;
    if (c.userToken !== undefined)
      row.userTokenEncrypted = c.userToken === null ? null : await this.encryption.encrypt(c.userToken, tokenContext(row.id, 'userToken'));
    if (c.refreshToken !== undefined)
      row.refreshTokenEncrypted =
        c.refreshToken === null ? null : await this.encryption.encrypt(c.refreshToken, tokenContext(row.id, 'refreshToken'));
  }

  private assertSupported(type: string): void {
    if (!this.accountTypes.has(type)) {
      throw new DomainError(
        SocialErrors.unsupported_account_type,
        `Unsupported social account type "${type}"; supported: ${this.supportedAccountTypes().join(', ')}`,
      );
    }
  }
}

/** Additional authenticated data of a token: a ciphertext copied to another row or column does not decrypt. */
const tokenContext = (id: string, which: TokenColumn) => `social:${id}:${which}`;

function toDto(s: SocialAccount): SocialDto {
  return {
    id: s.id,
    accountType: s.accountType,
    subjectId: s.subjectId,
    public: s.isPublic,
    handle: s.handle,
    server: s.server,
    expiryDate: s.expiryDate?.toISOString() ?? null,
    extraArgs: s.extraArgs,
    createdAt: s.providerCreatedAt,
    hasUserToken: s.userTokenEncrypted !== null,
    hasRefreshToken: s.refreshTokenEncrypted !== null,
    linkedAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
