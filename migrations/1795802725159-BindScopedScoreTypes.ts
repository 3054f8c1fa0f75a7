import type { MigrationInterface, QueryRunner } from 'typeorm';

// A scoped resource type now serves one quest event: the event that takes it as its score binds it
// (`resource_types.quest_event_id`), and only that event's quests can reward it. Types left
// unbound by the service before are bound here when exactly one event scores with them, so those
// events keep adding quests that reward their score. A type several events share stays unbound
// (which event should keep it is the operator's choice, docs/decisions.md): those events keep
// working as before, and the first of them updated with the type takes it. Data only, and nothing
// here can fail on existing rows.
export class BindScopedScoreTypes1795802725159 implements MigrationInterface {
  name = 'BindScopedScoreTypes1795802725159';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE resource_types t SET quest_event_id = e.id, updated_at = now()
      FROM quest_events e
      WHERE t.kind = 'scoped' AND t.quest_event_id IS NULL
        AND e.score_resource_type_id = t.id AND e.tenant_id = t.tenant_id AND e.community_id = t.community_id
        AND NOT EXISTS (SELECT 1 FROM quest_events o WHERE o.score_resource_type_id = t.id AND o.id <> e.id)`);
  }

  // Which bindings this made is not recorded (the service makes the same ones): they stay.
  async down(): Promise<void> {}
}
