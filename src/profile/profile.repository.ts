import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import { UserProfile } from './entities/user-profile.entity.js';

/** The editable profile columns and their names in the table. */
const COLUMNS = { biography: 'biography', dateOfBirth: 'date_of_birth', address: 'address' } as const;
export type ProfileFields = Partial<Pick<UserProfile, keyof typeof COLUMNS>>;

/** Users' profiles (one row per user, made on the first update). */
@Injectable()
export class ProfileRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid] })
  find(tenantId: string, userId: string, em?: EntityManager): Promise<UserProfile | null> {
    return this.manager(em).getRepository(UserProfile).findOneBy({ tenantId, userId });
  }

  /** Inserts the row with `set`, or changes only the columns in `set`. */
  @GenerateSql({ params: [DUMMY.tenant, DUMMY.uuid, { biography: 'Hi' }] })
  async upsert(tenantId: string, userId: string, set: ProfileFields, em?: EntityManager): Promise<void> {
    await this.manager(em)
      .createQueryBuilder()
      .insert()
      .into(UserProfile)
      .values({ userId, tenantId, ...set })
      .orUpdate([...(Object.keys(set) as (keyof typeof COLUMNS)[]).map((k) => COLUMNS[k]), 'updated_at'], ['user_id'])
      .execute();
  }
}
