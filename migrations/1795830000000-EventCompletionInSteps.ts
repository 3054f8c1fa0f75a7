import type { MigrationInterface, QueryRunner } from 'typeorm';

// A quest event's completion runs in steps of batches, each in a transaction of its own (one
// transaction for a million participants outran the statement timeout and never completed): while
// it runs the event is `completing` and `completion` holds where it stands, so it resumes after an
// interruption. Events completed before keep `completed`.
export class EventCompletionInSteps1795830000000 implements MigrationInterface {
  name = 'EventCompletionInSteps1795830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "quest_events" ADD "completion" jsonb');
  }

  // A completion still running goes back to published, for the earlier code's worker to complete in
  // one transaction (allocations are unique per reward and user; notices already sent are sent again).
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "quest_events" SET "state" = 'published' WHERE "state" = 'completing'`);
    await queryRunner.query('ALTER TABLE "quest_events" DROP COLUMN "completion"');
  }
}
