import { AppSecret } from './app-secret.entity.js';
import { Tenant } from '../tenants/entities/tenant.entity.js';
import { TenantDomain } from '../tenants/entities/tenant-domain.entity.js';
import { User } from '../users/entities/user.entity.js';
import { Referral } from '../users/entities/referral.entity.js';
import { RefreshToken } from '../auth/entities/refresh-token.entity.js';
import { Identity } from '../auth/entities/identity.entity.js';
import { UsedNonce } from '../auth/entities/used-nonce.entity.js';
import { SessionRevocation } from '../auth/entities/session-revocation.entity.js';
import { Wallet } from '../wallets/entities/wallet.entity.js';
import { Community } from '../communities/entities/community.entity.js';
import { CommunityMember } from '../communities/entities/community-member.entity.js';
import { ResourceType } from '../resources/entities/resource-type.entity.js';
import { ResourceBalance } from '../resources/entities/resource-balance.entity.js';
import { ResourceLedgerEntry } from '../resources/entities/resource-ledger-entry.entity.js';
import { RankBucket, RankBucketDelta } from '../resources/entities/rank-bucket.entity.js';
import { Notification } from '../notifications/entities/notification.entity.js';
import { SocialAccount } from '../socials/entities/social-account.entity.js';
import { UserProfile } from '../profile/entities/user-profile.entity.js';
import { InventorySlot } from '../inventory/entities/inventory-slot.entity.js';
import { InventoryItem } from '../inventory/entities/inventory-item.entity.js';
import { UserItem } from '../inventory/entities/user-item.entity.js';
import { ItemGrant } from '../inventory/entities/item-grant.entity.js';
import { Avatar } from '../inventory/entities/avatar.entity.js';
import { AvatarSlot } from '../inventory/entities/avatar-slot.entity.js';
import { AvatarMint } from '../inventory/entities/avatar-mint.entity.js';
import { StoreRequirement } from '../store/entities/store-requirement.entity.js';
import { SavedRequirementData } from '../store/entities/saved-requirement-data.entity.js';
import { StoreListing } from '../store/entities/store-listing.entity.js';
import { StorePurchase } from '../store/entities/store-purchase.entity.js';
import { StorePurchaseCount } from '../store/entities/store-purchase-count.entity.js';
import { Prize } from '../prizes/entities/prize.entity.js';
import { PrizeAward } from '../prizes/entities/prize-award.entity.js';
import { QuestEvent } from '../quest-events/entities/quest-event.entity.js';
import { QuestEventReward } from '../quest-events/entities/quest-event-reward.entity.js';
import { RewardAllocation } from '../quest-events/entities/reward-allocation.entity.js';
import { RewardClaim } from '../quest-events/entities/reward-claim.entity.js';
import { Participant } from '../participation/entities/participant.entity.js';
import { Quest } from '../quests/entities/quest.entity.js';
import { QuestCompletion } from '../quests/entities/quest-completion.entity.js';

/** Every TypeORM entity of the service. Add new entities here (and generate a migration). */
export const entities = [
  AppSecret,
  Tenant,
  TenantDomain,
  User,
  Referral,
  RefreshToken,
  Community,
  CommunityMember,
  ResourceType,
  ResourceBalance,
  ResourceLedgerEntry,
  RankBucket,
  RankBucketDelta,
  Notification,
  SocialAccount,
  UserProfile,
  Identity,
  UsedNonce,
  SessionRevocation,
  Wallet,
  InventorySlot,
  InventoryItem,
  UserItem,
  ItemGrant,
  Avatar,
  AvatarSlot,
  AvatarMint,
  StoreRequirement,
  SavedRequirementData,
  StoreListing,
  StorePurchase,
  StorePurchaseCount,
  Prize,
  PrizeAward,
  QuestEvent,
  QuestEventReward,
  RewardAllocation,
  RewardClaim,
  Participant,
  Quest,
  QuestCompletion,
  // <entities above>
];
