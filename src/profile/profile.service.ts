import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { CommunitiesService } from '../communities/communities.service.js';
import { InventoryService } from '../inventory/inventory.service.js';
import { ResourceTypesRepository } from '../resources/resource-types.repository.js';
import { RankingService } from '../resources/ranking.service.js';
import { SocialsService } from '../socials/socials.service.js';
import type { User } from '../users/entities/user.entity.js';
import { ReferralsService } from '../users/referrals.service.js';
import { UsersService } from '../users/users.service.js';
import type { DateOfBirthDto, ProfileDto, ProfileField, UpdateProfileDto } from './dto/profile.dto.js';
import { PROFILE_FIELDS } from './dto/profile.dto.js';
import type { PublicProfileDto, ReferralDto } from './dto/public-profile.dto.js';
import type { UserProfile } from './entities/user-profile.entity.js';
import { ProfileRepository, type ProfileFields } from './profile.repository.js';
import { dateOfBirthProblem } from './date-of-birth.js';
import { ProfileErrors } from './profile.errors.js';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const toDateColumn = (d: DateOfBirthDto) => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
function fromDateColumn(s: string | null): DateOfBirthDto | null {
  if (!s) return null;
  const [year, month, day] = s.split('-').map(Number);
  return { year, month, day };
}

/** The user's own profile, their public page in a community, and their referrals. */
@Injectable()
export class ProfileService {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly resourceTypes: ResourceTypesRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly referrals: ReferralsService,
    private readonly socials: SocialsService,
    private readonly communities: CommunitiesService,
    private readonly ranking: RankingService,
    private readonly inventory: InventoryService,
    private readonly clock: Clock,
  ) {}

  async getProfile(tenantId: string, userId: string, fields: readonly ProfileField[]): Promise<ProfileDto> {
    const wanted = new Set(fields);
    const user = await this.users.getById(tenantId, userId);
    const needsRow = wanted.has('biography') || wanted.has('dateOfBirth') || wanted.has('address');
    const row = needsRow ? await this.profiles.find(tenantId, userId) : null;
    const socials = wanted.has('socials') ? await this.socials.listSocials(tenantId, userId) : undefined;
    const full = toProfile(user, row, socials);
    // Authored order of PROFILE_FIELDS, whatever order they were asked in.
    return Object.fromEntries(PROFILE_FIELDS.filter((f) => wanted.has(f)).map((f) => [f, full[f]]));
  }

  /** Updates the given fields in one transaction and returns the whole profile. */
  async updateProfile(tenantId: string, userId: string, dto: UpdateProfileDto): Promise<ProfileDto> {
    if (dto.dateOfBirth) {
      const problem = dateOfBirthProblem(dto.dateOfBirth, this.clock.now());
      if (problem) throw new DomainError(ProfileErrors.invalid_date_of_birth, problem);
    }
    await this.dataSource.transaction(async (em) => {
      await this.users.updateIdentity(em, tenantId, userId, { displayName: dto.displayName, handle: dto.handle });
      const set: ProfileFields = {};
      if (dto.biography !== undefined) set.biography = dto.biography;
      if (dto.dateOfBirth !== undefined) set.dateOfBirth = dto.dateOfBirth === null ? null : toDateColumn(dto.dateOfBirth);
      if (dto.address !== undefined) set.address = dto.address === null ? null : { ...dto.address };
      if (Object.keys(set).length === 0) return;
      // One row per user: insert it on the first update, change only the given columns after.
      await this.profiles.upsert(tenantId, userId, set, em);
    });
    return this.getProfile(tenantId, userId, PROFILE_FIELDS);
  }

  /**
   * The public page of a user in a community. `ref` is the user id, the handle or the login
   * username (both case-insensitive), tried in that order: the path names a username, and a
   * client that knows only the login name must find the page after a handle change. The username
   * is looked up, never shown.
   */
  async getPublicProfile(tenantId: string, ref: string, containerId: string): Promise<PublicProfileDto> {
    const community = await this.communities.resolve(tenantId, containerId);
    const user = await this.users.findPublic(tenantId, ref);
    if (!user) throw new DomainError(ProfileErrors.profile_user_not_found, `No user "${ref.slice(0, 36)}" in this tenant`);
    const [socials, member, standing, avatar] = await Promise.all([
      this.socials.publicSocials(tenantId, user.id),
      this.communities.isMember(tenantId, community.id, user.id),
      this.standing(tenantId, community.id, user.id),
      this.inventory.userSlots(tenantId, community.id, user.id),
    ]);
    return {
      userId: user.id,
      handle: user.handle,
      displayName: user.displayName,
      avatar: avatar.slots.flatMap((s) =>
        s.item
          ? [{ slotKey: s.key, slotName: s.name, itemId: s.item.id, name: s.item.name, imageUrl: s.item.imageUrl, rarity: s.item.rarity }]
          : [],
      ),
      socials,
      communityId: community.id,
      member,
      xpResource: standing.xpResource,
      xp: standing.xp,
      rank: standing.rank,
    };
  }

  async listReferrals(tenantId: string, userId: string): Promise<ReferralDto[]> {
    const rows = await this.referrals.referredHandles(tenantId, userId);
    return rows.map((r) => ({
      handle: r.handle,
      userId: r.userId,
      communityId: r.communityId,
      referredAt: new Date(r.createdAt).toISOString(),
    }));
  }

  /**
   * XP and leaderboard position of the user in the community. XP is the community's global
   * resource type (the oldest one if there are several); `xp` is what its leaderboard ranks
   * (earned, not the spendable balance). No global type: 0 XP, unranked.
   */
  private async standing(
    tenantId: string,
    communityId: string,
    userId: string,
  ): Promise<{ xp: number; rank: number | null; xpResource: string | null }> {
    const type = await this.resourceTypes.oldestGlobal(tenantId, communityId);
    if (!type) return { xp: 0, rank: null, xpResource: null };
    const r = await this.ranking.userRanking(type.id, userId, 0);
    return { xp: r.amount, rank: r.rank, xpResource: type.slug };
  }
}

function toProfile(user: User, row: UserProfile | null, socials: ProfileDto['socials']): Required<ProfileDto> {
  return {
    id: user.id,
    username: user.username,
    handle: user.handle,
    displayName: user.displayName,
    biography: row?.biography ?? null,
    dateOfBirth: fromDateColumn(row?.dateOfBirth ?? null),
    address: row?.address ?? null,
    socials: socials ?? [],
    createdAt: user.createdAt.toISOString(),
  };
}
