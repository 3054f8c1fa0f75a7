import type { MigrationInterface, QueryRunner } from 'typeorm';

// Generated from the entity; the trigger below is written by hand (TypeORM does not model
// triggers): deleting users (by hand, or through a tenant's cascade) ends their sessions on every
// instance, as a logout does. 11 minutes = the session token lifetime and a minute of clock skew.
const END_SESSIONS_OF_DELETED_USERS = `
CREATE FUNCTION cgs_end_sessions_of_deleted_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  expires timestamptz := now() + interval '11 minutes';
  payload text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM deleted_users) THEN RETURN NULL; END IF;
  INSERT INTO session_revocations (user_id, expires_at) SELECT id, expires FROM deleted_users;
  SELECT json_build_object('userIds', json_agg(id), 'expiresAt', floor(extract(epoch FROM expires) * 1000))::text INTO payload FROM deleted_users;
  -- NOTIFY payloads stop at 8000 bytes: many users at once make the instances reload the list.
  IF length(payload) > 7000 THEN payload := '{"reload":true}'; END IF;
  PERFORM pg_notify('cgs_session_revocations', payload);
  RETURN NULL;
END $$`;

export class SessionRevocations1795460378117 implements MigrationInterface {
  name = 'SessionRevocations1795460378117';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"session_revocations\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"session_id\" uuid, \"user_id\" uuid, \"expires_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"ck_session_revocations_one_subject\" CHECK (num_nonnulls(session_id, user_id) = 1), CONSTRAINT \"PK_e2bb457860e744b8f24827fd4a0\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_session_revocations_expires\" ON \"session_revocations\"  (\"expires_at\") ");
    await queryRunner.query(END_SESSIONS_OF_DELETED_USERS);
    await queryRunner.query('CREATE TRIGGER users_deleted_end_sessions AFTER DELETE ON users REFERENCING OLD TABLE AS deleted_users FOR EACH STATEMENT EXECUTE FUNCTION cgs_end_sessions_of_deleted_users()');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER users_deleted_end_sessions ON users');
    await queryRunner.query('DROP FUNCTION cgs_end_sessions_of_deleted_users()');
    await queryRunner.query("DROP INDEX \"public\".\"ix_session_revocations_expires\"");
    await queryRunner.query("DROP TABLE \"session_revocations\"");
  }
}
