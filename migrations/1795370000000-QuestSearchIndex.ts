import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The community quest list's `query` filter (`name ILIKE '%…%' OR description ILIKE '%…%'`) was a
 * scan of every quest (100,000: 64 ms per count). Trigram GIN indexes answer a substring of three
 * or more characters from the index (pg_trgm ships with PostgreSQL and is a trusted extension: the
 * database owner may create it). Declared on the entity with `synchronize: false`.
 */
export class QuestSearchIndex1795370000000 implements MigrationInterface {
  name = 'QuestSearchIndex1795370000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`CREATE INDEX "ix_quests_active_search" ON "quests" USING gin ("name" gin_trgm_ops, "description" gin_trgm_ops) WHERE status = 'active'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_quests_active_search"`);
  }
}
