import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PausedDeliveries1795649256503 implements MigrationInterface {
  name = 'PausedDeliveries1795649256503';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"webhook_deliveries\" ADD \"paused\" boolean NOT NULL DEFAULT false");
    // What inactive subscriptions hold is paused from the start (the entity cannot say it: TypeORM does not compare index predicates).
    await queryRunner.query(
      "UPDATE \"webhook_deliveries\" d SET \"paused\" = true FROM \"webhook_subscriptions\" s WHERE s.id = d.subscription_id AND NOT s.active AND d.status IN ('pending', 'delivering')",
    );
    await queryRunner.query("DROP INDEX \"public\".\"ix_webhook_deliveries_due\"");
    await queryRunner.query("CREATE INDEX \"ix_webhook_deliveries_due\" ON \"webhook_deliveries\"  (\"next_attempt_at\") WHERE status IN ('pending', 'delivering') AND NOT paused");
    await queryRunner.query("CREATE INDEX \"ix_webhook_deliveries_paused\" ON \"webhook_deliveries\"  (\"subscription_id\") WHERE paused");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DROP INDEX \"public\".\"ix_webhook_deliveries_paused\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_webhook_deliveries_due\"");
    await queryRunner.query("CREATE INDEX \"ix_webhook_deliveries_due\" ON \"webhook_deliveries\"  (\"next_attempt_at\") WHERE status IN ('pending', 'delivering')");
    await queryRunner.query("ALTER TABLE \"webhook_deliveries\" DROP COLUMN \"paused\"");
  }
}
