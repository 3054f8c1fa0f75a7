import type { MigrationInterface, QueryRunner } from 'typeorm';

// Generated from the entities. The live notification stream (src/notifications/stream): each
// notification row records the id of the transaction that wrote it (the resume cursor compares it
// with a snapshot; rows written before this migration get the migration's, which every later
// snapshot sees as committed), and browsers' single-use stream tickets. The transaction id is
// written through a function of ours: TypeORM strips the casts of a column default when it reads
// the schema back, so `pg_current_xact_id()::text::bigint` would never match the entity.
const CURRENT_XID = "CREATE FUNCTION cgs_current_xid() RETURNS bigint LANGUAGE sql VOLATILE AS 'SELECT pg_current_xact_id()::text::bigint'";

export class NotificationStream1795603748081 implements MigrationInterface {
  name = 'NotificationStream1795603748081';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"notification_stream_tickets\" (\"token_hash\" character(64) NOT NULL, \"tenant_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"session_id\" uuid, \"expires_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_425f7203952f74d256e0d31255c\" PRIMARY KEY (\"token_hash\"))");
    await queryRunner.query("CREATE INDEX \"ix_notification_stream_tickets_expires\" ON \"notification_stream_tickets\"  (\"expires_at\") ");
    await queryRunner.query(CURRENT_XID);
    await queryRunner.query("ALTER TABLE \"notifications\" ADD \"xid\" bigint NOT NULL DEFAULT cgs_current_xid()");
    await queryRunner.query("CREATE INDEX \"ix_notifications_user_xid\" ON \"notifications\"  (\"tenant_id\", \"user_id\", \"xid\") ");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DROP INDEX \"public\".\"ix_notifications_user_xid\"");
    await queryRunner.query("ALTER TABLE \"notifications\" DROP COLUMN \"xid\"");
    await queryRunner.query('DROP FUNCTION cgs_current_xid()');
    await queryRunner.query("DROP INDEX \"public\".\"ix_notification_stream_tickets_expires\"");
    await queryRunner.query("DROP TABLE \"notification_stream_tickets\"");
  }
}
