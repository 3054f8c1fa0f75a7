import type { MigrationInterface, QueryRunner } from 'typeorm';

// A quest event's completion runs in steps of batches, each in a transaction of its own (one
// transaction for a million participants outran the statement timeout and never completed): while
// it runs the event is `completing` and `completion` holds where it stands, so it resumes after an
// interruption. The completion stores each ranked participant's place and rank in the final
// standings, so a page of them or a player's place is a range of an index, not a count of every
// place before it; events completed before get theirs here.
export class EventCompletionInSteps1795830000000 implements MigrationInterface {
  name = 'EventCompletionInSteps1795830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "quest_events" ADD "completion" jsonb');
    await queryRunner.query('ALTER TABLE "quest_event_participants" ADD "final_position" integer');
    await queryRunner.query('ALTER TABLE "quest_event_participants" ADD "final_rank" integer');
    // The standings of every completed event at once: as long as they take (the transaction's own limit).
    await queryRunner.query('SET LOCAL statement_timeout = 0');
    await queryRunner.query(
      `UPDATE "quest_event_participants" p SET "final_position" = x.position, "final_rank" = x.rank
         FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY event_id ORDER BY score DESC, user_id) AS position,
                      RANK() OVER (PARTITION BY event_id ORDER BY score DESC) AS rank
                 FROM "quest_event_participants"
                WHERE status = 1 AND score > 0 AND event_id IN (SELECT id FROM "quest_events" WHERE state = 'completed')) x
        WHERE p.id = x.id`,
    );
    await queryRunner.query(
      'CREATE INDEX "ix_participants_final_position" ON "quest_event_participants" ("event_id", "final_position") WHERE final_position IS NOT NULL',
    );
  }

  // A completion still running goes back to published, for the earlier code's worker to complete in
  // one transaction (allocations are unique per reward and user; notices already sent are sent again).
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."ix_participants_final_position"');
    await queryRunner.query('ALTER TABLE "quest_event_participants" DROP COLUMN "final_rank"');
    await queryRunner.query('ALTER TABLE "quest_event_participants" DROP COLUMN "final_position"');
    await queryRunner.query(`UPDATE "quest_events" SET "state" = 'published' WHERE "state" = 'completing'`);
    await queryRunner.query('ALTER TABLE "quest_events" DROP COLUMN "completion"');
  }
}
