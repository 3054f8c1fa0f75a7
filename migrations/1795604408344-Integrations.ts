import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Integrations1795604408344 implements MigrationInterface {
  name = 'Integrations1795604408344';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"outbox_events\" (\"id\" uuid NOT NULL, \"tenant_id\" uuid NOT NULL, \"type\" character varying(64) NOT NULL, \"version\" smallint NOT NULL, \"occurred_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"payload\" jsonb NOT NULL, \"nats_pending\" boolean NOT NULL DEFAULT false, CONSTRAINT \"PK_6689a16c00d09b8089f6237f1d2\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_outbox_events_nats_pending\" ON \"outbox_events\"  (\"occurred_at\") WHERE nats_pending");
    await queryRunner.query("CREATE INDEX \"ix_outbox_events_tenant_time\" ON \"outbox_events\"  (\"tenant_id\", \"occurred_at\") ");
    await queryRunner.query("CREATE TABLE \"webhook_subscriptions\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"url\" character varying(2048) NOT NULL, \"event_types\" text array NOT NULL, \"active\" boolean NOT NULL DEFAULT true, \"description\" character varying(128), \"secret_encrypted\" text NOT NULL, \"previous_secret_encrypted\" text, \"previous_secret_expires_at\" TIMESTAMP WITH TIME ZONE, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_bf631ae77d39849d599817fb6f4\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_webhook_subscriptions_tenant\" ON \"webhook_subscriptions\"  (\"tenant_id\", \"created_at\") ");
    await queryRunner.query("CREATE TABLE \"webhook_deliveries\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"subscription_id\" uuid NOT NULL, \"event_id\" uuid NOT NULL, \"status\" character varying(16) NOT NULL, \"attempts\" integer NOT NULL DEFAULT '0', \"next_attempt_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"last_status_code\" smallint, \"last_error\" character varying(500), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"delivered_at\" TIMESTAMP WITH TIME ZONE, CONSTRAINT \"PK_535dd409947fb6d8fc6dfc0112a\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_webhook_deliveries_event\" ON \"webhook_deliveries\"  (\"event_id\") ");
    await queryRunner.query("CREATE INDEX \"ix_webhook_deliveries_subscription\" ON \"webhook_deliveries\"  (\"subscription_id\", \"created_at\") ");
    await queryRunner.query("CREATE INDEX \"ix_webhook_deliveries_due\" ON \"webhook_deliveries\"  (\"next_attempt_at\") WHERE status IN ('pending', 'delivering')");
    await queryRunner.query("CREATE TABLE \"webhook_attempts\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"delivery_id\" uuid NOT NULL, \"attempted_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"status_code\" smallint, \"duration_ms\" integer NOT NULL, \"error\" character varying(500), CONSTRAINT \"PK_2de7e7887ad97de459adab62638\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_webhook_attempts_delivery\" ON \"webhook_attempts\"  (\"delivery_id\", \"attempted_at\") ");
    await queryRunner.query("ALTER TABLE \"webhook_deliveries\" ADD CONSTRAINT \"FK_23eb2b6ae801c52cfb79a556b8a\" FOREIGN KEY (\"subscription_id\") REFERENCES \"webhook_subscriptions\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"webhook_attempts\" ADD CONSTRAINT \"FK_0d56d91d61b827bb2079c256538\" FOREIGN KEY (\"delivery_id\") REFERENCES \"webhook_deliveries\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"webhook_attempts\" DROP CONSTRAINT \"FK_0d56d91d61b827bb2079c256538\"");
    await queryRunner.query("ALTER TABLE \"webhook_deliveries\" DROP CONSTRAINT \"FK_23eb2b6ae801c52cfb79a556b8a\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_webhook_attempts_delivery\"");
    await queryRunner.query("DROP TABLE \"webhook_attempts\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_webhook_deliveries_due\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_webhook_deliveries_subscription\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_webhook_deliveries_event\"");
    await queryRunner.query("DROP TABLE \"webhook_deliveries\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_webhook_subscriptions_tenant\"");
    await queryRunner.query("DROP TABLE \"webhook_subscriptions\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_outbox_events_tenant_time\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_outbox_events_nats_pending\"");
    await queryRunner.query("DROP TABLE \"outbox_events\"");
  }
}
