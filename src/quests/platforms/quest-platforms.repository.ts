import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../../database/repository.js';
import type { QuestPlatform } from '../entities/quest-platform-credential.entity.js';

/** Communities' platform credentials for social checks (`quest_platform_credentials`). */
@Injectable()
export class QuestPlatformsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'discord', 'v1:ciphertext'] })
  async upsert(tenantId: string, communityId: string, platform: QuestPlatform, tokenEnc: string, em?: EntityManager): Promise<void> {
    await this.manager(em).query(
      `INSERT INTO quest_platform_credentials (tenant_id, community_id, platform, token_enc) VALUES ($1, $2, $3, $4)
       ON CONFLICT (community_id, platform) DO UPDATE SET token_enc = $4, updated_at = now()`,
      [tenantId, communityId, platform, tokenEnc],
    );
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'discord'] })
  async tokenEnc(tenantId: string, communityId: string, platform: QuestPlatform, em?: EntityManager): Promise<string | null> {
    const rows: { token_enc: string }[] = await this.manager(em).query(
      'SELECT token_enc FROM quest_platform_credentials WHERE tenant_id = $1 AND community_id = $2 AND platform = $3',
      [tenantId, communityId, platform],
    );
    return rows[0]?.token_enc ?? null;
  }

  /** Whether there was one to delete. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, 'discord'] })
  async delete(tenantId: string, communityId: string, platform: QuestPlatform, em?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.manager(em).query(
      'DELETE FROM quest_platform_credentials WHERE tenant_id = $1 AND community_id = $2 AND platform = $3 RETURNING 1',
      [tenantId, communityId, platform],
    );
    return rows.length > 0;
  }
}
