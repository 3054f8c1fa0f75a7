import type { MigrationInterface, QueryRunner } from 'typeorm';

// A completed event's leaderboard and ranks are read from its participants' frozen scores (the
// standings its tickets were allocated by): REGISTERED participants with a score, best first.
// With this index a page is a range of it (no sort of every participant), and a player's place a
// count over it.
export class EventFinalStandings1795770000000 implements MigrationInterface {
  name = 'EventFinalStandings1795770000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "ix_participants_standings" ON "quest_event_participants" ("event_id", "score" DESC, "user_id") WHERE status = 1 AND score > 0',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."ix_participants_standings"');
  }
}
