import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes the list plans asked for (docs/performance.md). The community quest list's page
 * (`status = 'active'`, ordered by featured DESC, created_at, id) and its tag filter (`tags && ...`);
 * the quest event list's page (tenant, ordered by starts_at, id). Declared on the entities with
 * `synchronize: false` (partial, DESC and GIN indexes are written here).
 */
export class PerformanceIndexes1795358000000 implements MigrationInterface {
  name = 'PerformanceIndexes1795358000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "ix_quests_active_order" ON "quests" ("tenant_id", "community_id", "featured" DESC, "created_at", "id") WHERE status = 'active'`);
    await queryRunner.query(`CREATE INDEX "ix_quests_active_tags" ON "quests" USING gin ("tags") WHERE status = 'active'`);
    await queryRunner.query(`CREATE INDEX "ix_quest_events_tenant_starts" ON "quest_events" ("tenant_id", "starts_at", "id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_quest_events_tenant_starts"`);
    await queryRunner.query(`DROP INDEX "public"."ix_quests_active_tags"`);
    await queryRunner.query(`DROP INDEX "public"."ix_quests_active_order"`);
  }
}
