import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { Community } from '../../communities/entities/community.entity.js';
import { BaseEntity } from '../../database/base.entity.js';

export const QUEST_PLATFORMS = ['discord', 'x'] as const;
export type QuestPlatform = (typeof QUEST_PLATFORMS)[number];

/**
 * A community's credential for a platform its `social` tasks check: Discord's bot token, X's app
 * bearer token. AES-256-GCM ciphertext (EncryptionService), never returned.
 */
@Entity('quest_platform_credentials')
@Index('uq_quest_platform_credentials', ['communityId', 'platform'], { unique: true })
export class QuestPlatformCredential extends BaseEntity {
  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'uuid' })
  communityId: string;

  @ManyToOne(() => Community, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'community_id' })
  community?: Relation<Community>;

  @Column({ type: 'varchar', length: 16 })
  platform: QuestPlatform;

  @Column({ type: 'text' })
  tokenEnc: string;
}
