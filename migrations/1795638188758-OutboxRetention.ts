import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OutboxRetention1795638188758 implements MigrationInterface {
  name = 'OutboxRetention1795638188758';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DROP INDEX \"public\".\"ix_outbox_events_tenant_time\"");
    await queryRunner.query("CREATE INDEX \"ix_outbox_events_time\" ON \"outbox_events\"  (\"occurred_at\") ");
    await queryRunner.query("CREATE INDEX \"ix_webhook_deliveries_finished\" ON \"webhook_deliveries\"  (\"updated_at\") WHERE status IN ('delivered', 'dead')");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DROP INDEX \"public\".\"ix_webhook_deliveries_finished\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_outbox_events_time\"");
    await queryRunner.query("CREATE INDEX \"ix_outbox_events_tenant_time\" ON \"outbox_events\" USING btree (\"tenant_id\", \"occurred_at\") ");
  }
}
