import { Injectable } from '@nestjs/common';
import { preparedQuery } from '../database/prepared-query.js';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, DUMMY, GenerateSql } from '../database/repository.js';
import type { ResourceKind } from './entities/resource-type.entity.js';

/** What a ledger entry's earned change also counts for: seasons live at `at` that take its reason (and quest). */
export interface SeasonMatch {
  at: Date;
  reason: string;
  reference: string | null;
}

/**
 * The select list of `exist` with a season match (`user_ok`, `type_kind`, `season_ids`), its
 * parameters (`targetsParams`) numbered from `$first`: for a statement that folds the check into
 * its write (`LedgerRepository.appendCredit`).
 */
export function targetsSelect(first: number): string {
  const [user, type, tenant, at, reason, reference] = [0, 1, 2, 3, 4, 5].map((i) => `$${first + i}`);
  return `EXISTS (SELECT 1 FROM users WHERE id = ${user} AND tenant_id = ${tenant}) AS user_ok,
              (SELECT kind FROM resource_types WHERE id = ${type} AND tenant_id = ${tenant}) AS type_kind,
              (SELECT array_agg(s.id ORDER BY s.id) FROM seasons s
                 WHERE s.resource_type_id = ${type} AND s.ends_at > ${at} AND s.starts_at <= ${at} AND s.tenant_id = ${tenant}
                   AND ((s.reasons IS NULL AND ${reason} <> 'season_reward') OR ${reason} = ANY (s.reasons))
                   AND (s.quest_ids IS NULL OR (${reason} = 'quest_completion' AND ${reference} = ANY (s.quest_ids::text[])))) AS season_ids`;
}

export const targetsParams = (tenantId: string, userId: string, resourceTypeId: string, season: SeasonMatch): unknown[] => [
  userId,
  resourceTypeId,
  tenantId,
  season.at,
  season.reason,
  season.reference,
];

/**
 * Whether a ledger operation's user and resource type exist in its tenant, and the type's kind, in
 * one round trip on the operation's own transaction; with `season`, also the seasons of the type
 * whose window holds the entry and whose filters take it (their boards count it). Reads `users`
 * (users module), `resource_types` (this module) and `seasons` (seasons module).
 */
@Injectable()
export class LedgerTargetsReadModel extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  @GenerateSql(
    { params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2] },
    {
      name: 'existWithSeasons',
      params: [DUMMY.tenant, DUMMY.uuid, DUMMY.uuid2, { at: DUMMY.date, reason: 'quest_completion', reference: DUMMY.uuid3 }],
    },
  )
  async exist(
    tenantId: string,
    userId: string,
    resourceTypeId: string,
    season?: SeasonMatch | null,
    em?: EntityManager,
  ): Promise<{ user: boolean; type: ResourceKind | null; seasonIds: string[] }> {
    if (!season) {
      const found = await preparedQuery<{ user_ok: boolean; type_kind: ResourceKind | null }>(
        this.manager(em),
        `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND tenant_id = $3) AS user_ok,
              (SELECT kind FROM resource_types WHERE id = $2 AND tenant_id = $3) AS type_kind`,
        [userId, resourceTypeId, tenantId],
      );
      return { user: found[0].user_ok, type: found[0].type_kind, seasonIds: [] };
    }
    // Seasons are few per type (index ix_seasons_open): the live ones are found in the same round trip.
    // A season's own rank rewards (`season_reward`) count for no other season unless it names that reason.
    const found = await preparedQuery<{ user_ok: boolean; type_kind: ResourceKind | null; season_ids: string[] | null }>(
      this.manager(em),
      `SELECT ${targetsSelect(1)}`,
      targetsParams(tenantId, userId, resourceTypeId, season),
    );
    return { user: found[0].user_ok, type: found[0].type_kind, seasonIds: found[0].season_ids ?? [] };
  }

  /**
   * `exist` for a batch of credits of one resource type, reason and reference to many users (one
   * round trip): which of the users are not in the tenant, the type's kind, and the live seasons
   * that count the entries (the same for every user: they depend on the type, time and reason).
   */
  @GenerateSql({
    params: [DUMMY.tenant, [DUMMY.uuid, DUMMY.uuid3], DUMMY.uuid2, { at: DUMMY.date, reason: 'season_reward', reference: DUMMY.uuid3 }],
  })
  async existMany(
    tenantId: string,
    userIds: string[],
    resourceTypeId: string,
    season: SeasonMatch,
    em?: EntityManager,
  ): Promise<{ missingUsers: string[]; type: ResourceKind | null; seasonIds: string[] }> {
    const found: { missing: string[] | null; type_kind: ResourceKind | null; season_ids: string[] | null }[] = await this.manager(em).query(
      `SELECT (SELECT array_agg(x.id) FROM unnest($1::uuid[]) AS x(id) WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = x.id AND u.tenant_id = $3)) AS missing,
              (SELECT kind FROM resource_types WHERE id = $2 AND tenant_id = $3) AS type_kind,
              (SELECT array_agg(s.id ORDER BY s.id) FROM seasons s
                 WHERE s.resource_type_id = $2 AND s.ends_at > $4 AND s.starts_at <= $4 AND s.tenant_id = $3
                   AND ((s.reasons IS NULL AND $5 <> 'season_reward') OR $5 = ANY (s.reasons))
                   AND (s.quest_ids IS NULL OR ($5 = 'quest_completion' AND $6 = ANY (s.quest_ids::text[])))) AS season_ids`,
      [userIds, resourceTypeId, tenantId, season.at, season.reason, season.reference],
    );
    return { missingUsers: found[0].missing ?? [], type: found[0].type_kind, seasonIds: found[0].season_ids ?? [] };
  }
}
