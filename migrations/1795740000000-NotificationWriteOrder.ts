import type { MigrationInterface, QueryRunner } from 'typeorm';

// Notifications written in the same millisecond (the two of a store purchase, of an event's
// completion) were ordered by their random id, so a list could show them in either order. Each row
// now takes a number from a sequence as it is written: the lists and the live stream order ties of
// time by it. Added without a rewrite of the table (a nullable column, its default set after):
// rows written before have none and keep their order by id among themselves.
export class NotificationWriteOrder1795740000000 implements MigrationInterface {
  name = 'NotificationWriteOrder1795740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "notifications" ADD "seq" bigint');
    await queryRunner.query('CREATE SEQUENCE "notifications_seq_seq" OWNED BY "notifications"."seq"');
    await queryRunner.query(`ALTER TABLE "notifications" ALTER COLUMN "seq" SET DEFAULT nextval('"notifications_seq_seq"')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The sequence goes with its column.
    await queryRunner.query('ALTER TABLE "notifications" DROP COLUMN "seq"');
  }
}
