import type { MigrationInterface, QueryRunner } from 'typeorm';

// Quests players complete themselves: tasks and the players' progress on them, streaks, game
// events, communities' platform credentials; quests gain their schedule (recurrence, cooldown,
// limits, window, prerequisites, streak bonus, gates) and a completion its period (existing ones
// are `once`, so the unique (quest, user) becomes (quest, user, period) with the same rows). One
// transaction: no moment without a unique index on completions is visible.

export class QuestTasks1796184343319 implements MigrationInterface {
  name = 'QuestTasks1796184343319';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DROP INDEX \"public\".\"uq_quest_completions_quest_user\"");
    await queryRunner.query("CREATE TABLE \"quest_tasks\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"quest_id\" uuid NOT NULL, \"position\" integer NOT NULL DEFAULT '0', \"kind\" character varying(16) NOT NULL, \"title\" character varying(200) NOT NULL, \"description\" text NOT NULL DEFAULT '', \"settings\" jsonb NOT NULL, \"secret_enc\" text, CONSTRAINT \"PK_2f57a0e592abade6f67229b2945\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_quest_tasks_quest\" ON \"quest_tasks\"  (\"quest_id\", \"position\") ");
    await queryRunner.query("CREATE TABLE \"quest_task_progress\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"quest_id\" uuid NOT NULL, \"task_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"period_key\" character varying(16) NOT NULL, \"state\" character varying(16) NOT NULL, \"attempts\" integer NOT NULL DEFAULT '0', \"retry_at\" TIMESTAMP WITH TIME ZONE, \"submission\" text, \"review_reason\" character varying(500), \"reviewed_by\" character varying(64), \"reviewed_at\" TIMESTAMP WITH TIME ZONE, \"done_at\" TIMESTAMP WITH TIME ZONE, CONSTRAINT \"PK_17e43f7413b4f057025271f1c5c\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_quest_task_progress_review\" ON \"quest_task_progress\"  (\"tenant_id\", \"state\", \"created_at\") ");
    await queryRunner.query("CREATE INDEX \"ix_quest_task_progress_user\" ON \"quest_task_progress\"  (\"tenant_id\", \"user_id\", \"quest_id\", \"period_key\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_quest_task_progress_task_user_period\" ON \"quest_task_progress\"  (\"task_id\", \"user_id\", \"period_key\") ");
    await queryRunner.query("CREATE TABLE \"game_events\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"type\" character varying(64) NOT NULL, \"value\" bigint NOT NULL DEFAULT '1', \"occurred_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"idempotency_key\" character varying(128) NOT NULL, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"PK_250946158c7913ba536add1e602\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_game_events_user_type\" ON \"game_events\"  (\"tenant_id\", \"user_id\", \"type\", \"occurred_at\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_game_events_idempotency\" ON \"game_events\"  (\"tenant_id\", \"idempotency_key\") ");
    await queryRunner.query("CREATE TABLE \"quest_platform_credentials\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"platform\" character varying(16) NOT NULL, \"token_enc\" text NOT NULL, CONSTRAINT \"PK_897fd5ca7eafa585b0f68dc6c25\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_quest_platform_credentials\" ON \"quest_platform_credentials\"  (\"community_id\", \"platform\") ");
    await queryRunner.query("CREATE TABLE \"quest_streaks\" (\"quest_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"tenant_id\" uuid NOT NULL, \"current\" integer NOT NULL, \"best\" integer NOT NULL, \"last_period_key\" character varying(16) NOT NULL, \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"PK_232d4722297588abc4b410924d0\" PRIMARY KEY (\"quest_id\", \"user_id\"))");
    await queryRunner.query("ALTER TABLE \"communities\" ADD \"time_zone\" character varying(64) NOT NULL DEFAULT 'UTC'");
    await queryRunner.query("ALTER TABLE \"quests\" ADD \"recurrence\" character varying(8) NOT NULL DEFAULT 'once'");
    await queryRunner.query("ALTER TABLE \"quests\" ADD \"cooldown_seconds\" integer");
    await queryRunner.query("ALTER TABLE \"quests\" ADD \"max_completions\" integer");
    await queryRunner.query("ALTER TABLE \"quests\" ADD \"available_from\" TIMESTAMP WITH TIME ZONE");
    await queryRunner.query("ALTER TABLE \"quests\" ADD \"available_until\" TIMESTAMP WITH TIME ZONE");
    await queryRunner.query("ALTER TABLE \"quests\" ADD \"prerequisites\" uuid array NOT NULL DEFAULT '{}'");
    await queryRunner.query("ALTER TABLE \"quests\" ADD \"streak_bonus\" jsonb");
    await queryRunner.query("ALTER TABLE \"quests\" ADD \"gates\" jsonb NOT NULL DEFAULT '{}'");
    await queryRunner.query("ALTER TABLE \"quests\" ADD \"task_count\" integer NOT NULL DEFAULT '0'");
    await queryRunner.query("ALTER TABLE \"quest_completions\" ADD \"period_key\" character varying(16) NOT NULL DEFAULT 'once'");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_quest_completions_quest_user_period\" ON \"quest_completions\"  (\"quest_id\", \"user_id\", \"period_key\") ");
    await queryRunner.query("ALTER TABLE \"quest_tasks\" ADD CONSTRAINT \"FK_323ee821ffcbd45f99542d2cb94\" FOREIGN KEY (\"quest_id\") REFERENCES \"quests\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_task_progress\" ADD CONSTRAINT \"FK_1e7543e0bd7fe872963381d5721\" FOREIGN KEY (\"task_id\") REFERENCES \"quest_tasks\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_task_progress\" ADD CONSTRAINT \"FK_52dee83ba84865fc654464e65ac\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"game_events\" ADD CONSTRAINT \"FK_1815e9824ecdaf0cc7bffd414a3\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_platform_credentials\" ADD CONSTRAINT \"FK_0214c1410c15535b01e449b4ed9\" FOREIGN KEY (\"community_id\") REFERENCES \"communities\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_streaks\" ADD CONSTRAINT \"FK_2838a2f368c69f57b2b878434b6\" FOREIGN KEY (\"quest_id\") REFERENCES \"quests\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_streaks\" ADD CONSTRAINT \"FK_a248ebc8d1f6275f3ad805c9b47\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"quest_streaks\" DROP CONSTRAINT \"FK_a248ebc8d1f6275f3ad805c9b47\"");
    await queryRunner.query("ALTER TABLE \"quest_streaks\" DROP CONSTRAINT \"FK_2838a2f368c69f57b2b878434b6\"");
    await queryRunner.query("ALTER TABLE \"quest_platform_credentials\" DROP CONSTRAINT \"FK_0214c1410c15535b01e449b4ed9\"");
    await queryRunner.query("ALTER TABLE \"game_events\" DROP CONSTRAINT \"FK_1815e9824ecdaf0cc7bffd414a3\"");
    await queryRunner.query("ALTER TABLE \"quest_task_progress\" DROP CONSTRAINT \"FK_52dee83ba84865fc654464e65ac\"");
    await queryRunner.query("ALTER TABLE \"quest_task_progress\" DROP CONSTRAINT \"FK_1e7543e0bd7fe872963381d5721\"");
    await queryRunner.query("ALTER TABLE \"quest_tasks\" DROP CONSTRAINT \"FK_323ee821ffcbd45f99542d2cb94\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_quest_completions_quest_user_period\"");
    await queryRunner.query("ALTER TABLE \"quest_completions\" DROP COLUMN \"period_key\"");
    await queryRunner.query("ALTER TABLE \"quests\" DROP COLUMN \"task_count\"");
    await queryRunner.query("ALTER TABLE \"quests\" DROP COLUMN \"gates\"");
    await queryRunner.query("ALTER TABLE \"quests\" DROP COLUMN \"streak_bonus\"");
    await queryRunner.query("ALTER TABLE \"quests\" DROP COLUMN \"prerequisites\"");
    await queryRunner.query("ALTER TABLE \"quests\" DROP COLUMN \"available_until\"");
    await queryRunner.query("ALTER TABLE \"quests\" DROP COLUMN \"available_from\"");
    await queryRunner.query("ALTER TABLE \"quests\" DROP COLUMN \"max_completions\"");
    await queryRunner.query("ALTER TABLE \"quests\" DROP COLUMN \"cooldown_seconds\"");
    await queryRunner.query("ALTER TABLE \"quests\" DROP COLUMN \"recurrence\"");
    await queryRunner.query("ALTER TABLE \"communities\" DROP COLUMN \"time_zone\"");
    await queryRunner.query("DROP TABLE \"quest_streaks\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_quest_platform_credentials\"");
    await queryRunner.query("DROP TABLE \"quest_platform_credentials\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_game_events_idempotency\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_game_events_user_type\"");
    await queryRunner.query("DROP TABLE \"game_events\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_quest_task_progress_task_user_period\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_quest_task_progress_user\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_quest_task_progress_review\"");
    await queryRunner.query("DROP TABLE \"quest_task_progress\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_quest_tasks_quest\"");
    await queryRunner.query("DROP TABLE \"quest_tasks\"");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_quest_completions_quest_user\" ON \"quest_completions\" USING btree (\"quest_id\", \"user_id\") ");
  }
}
