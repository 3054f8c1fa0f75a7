import type { MigrationInterface, QueryRunner } from 'typeorm';

export class QuestsEventsParticipation1795357800008 implements MigrationInterface {
  name = 'QuestsEventsParticipation1795357800008';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"quest_events\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"slug\" character varying(64) NOT NULL, \"name\" character varying(200) NOT NULL, \"description\" text NOT NULL DEFAULT '', \"image_url\" character varying(2048), \"features\" text array NOT NULL DEFAULT '{}', \"state\" character varying(16) NOT NULL, \"registration_starts_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"registration_ends_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"starts_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"ends_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"capacity\" integer, \"registered_count\" integer NOT NULL DEFAULT '0', \"score_resource_type_id\" uuid, \"min_score\" integer NOT NULL DEFAULT '1', \"max_rank\" integer, \"completed_at\" TIMESTAMP WITH TIME ZONE, \"cancelled_at\" TIMESTAMP WITH TIME ZONE, CONSTRAINT \"ck_quest_events_rule\" CHECK (min_score >= 0 AND (max_rank IS NULL OR max_rank >= 1)), CONSTRAINT \"ck_quest_events_registered\" CHECK (registered_count >= 0 AND (capacity IS NULL OR registered_count <= capacity)), CONSTRAINT \"PK_5e67120b374cf2e5786f6d4a590\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_quest_events_due\" ON \"quest_events\"  (\"state\", \"ends_at\") ");
    await queryRunner.query("CREATE INDEX \"ix_quest_events_community\" ON \"quest_events\"  (\"community_id\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_quest_events_tenant_slug\" ON \"quest_events\"  (\"tenant_id\", \"slug\") ");
    await queryRunner.query("CREATE TABLE \"quest_event_rewards\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"event_id\" uuid NOT NULL, \"name\" character varying(200) NOT NULL, \"description\" text NOT NULL DEFAULT '', \"kind\" character varying(16) NOT NULL, \"resource_type_id\" uuid, \"item_id\" uuid, \"amount\" integer NOT NULL DEFAULT '1', \"tickets\" integer NOT NULL DEFAULT '1', \"ticket_cost\" integer NOT NULL DEFAULT '1', \"supply\" integer, \"claimed\" integer NOT NULL DEFAULT '0', \"rank_from\" integer, \"rank_to\" integer, \"requires_email\" boolean NOT NULL DEFAULT false, \"requires_wallet_address\" boolean NOT NULL DEFAULT false, \"requires_address\" boolean NOT NULL DEFAULT false, CONSTRAINT \"ck_quest_event_rewards_tickets\" CHECK (tickets >= 1 AND ticket_cost >= 1 AND amount >= 1), CONSTRAINT \"ck_quest_event_rewards_supply\" CHECK (claimed >= 0 AND (supply IS NULL OR claimed <= supply)), CONSTRAINT \"PK_aed6cb949943dbb3c3279ac29b3\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_quest_event_rewards_event\" ON \"quest_event_rewards\"  (\"event_id\") ");
    await queryRunner.query("CREATE TABLE \"quest_event_reward_allocations\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"event_id\" uuid NOT NULL, \"reward_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"tickets\" integer NOT NULL, \"tickets_spent\" integer NOT NULL DEFAULT '0', \"rank\" integer, \"score\" bigint NOT NULL, \"requirement_data\" jsonb, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"ck_reward_allocations_tickets\" CHECK (tickets_spent >= 0 AND tickets_spent <= tickets), CONSTRAINT \"PK_058cb0fa0791935ea13dfcd1269\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_reward_allocations_event_user\" ON \"quest_event_reward_allocations\"  (\"event_id\", \"user_id\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_reward_allocations_reward_user\" ON \"quest_event_reward_allocations\"  (\"reward_id\", \"user_id\") ");
    await queryRunner.query("CREATE TABLE \"quest_event_reward_claims\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"allocation_id\" uuid NOT NULL, \"reward_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"tickets_spent\" integer NOT NULL, \"email\" character varying(254), \"wallet_address\" character varying(42), \"address\" jsonb, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_1a1f4fe69bdd5eec23afe52b533\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_reward_claims_allocation\" ON \"quest_event_reward_claims\"  (\"allocation_id\") ");
    await queryRunner.query("CREATE TABLE \"quest_event_participants\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"event_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"status\" smallint NOT NULL, \"score\" bigint NOT NULL DEFAULT '0', \"score_synced_at\" TIMESTAMP WITH TIME ZONE, \"registered_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"status_changed_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"drop_reason\" character varying(500), CONSTRAINT \"PK_4495f35309109bce74a896cf1f1\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_participants_user\" ON \"quest_event_participants\"  (\"tenant_id\", \"user_id\") ");
    await queryRunner.query("CREATE INDEX \"ix_participants_event_status\" ON \"quest_event_participants\"  (\"event_id\", \"status\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_participants_event_user\" ON \"quest_event_participants\"  (\"event_id\", \"user_id\") ");
    await queryRunner.query("CREATE TABLE \"quests\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"quest_event_id\" uuid, \"name\" character varying(200) NOT NULL, \"description\" text NOT NULL DEFAULT '', \"type\" character varying(64) NOT NULL, \"status\" character varying(16) NOT NULL, \"tags\" text array NOT NULL DEFAULT '{}', \"rewards\" jsonb NOT NULL DEFAULT '[]', \"featured\" boolean NOT NULL DEFAULT false, \"template\" boolean NOT NULL DEFAULT false, CONSTRAINT \"PK_a037497017b64f530fe09c75364\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_quests_tenant\" ON \"quests\"  (\"tenant_id\") ");
    await queryRunner.query("CREATE INDEX \"ix_quests_event\" ON \"quests\"  (\"quest_event_id\") ");
    await queryRunner.query("CREATE INDEX \"ix_quests_community_status\" ON \"quests\"  (\"community_id\", \"status\") ");
    await queryRunner.query("CREATE TABLE \"quest_completions\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"quest_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"completed_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_178dfb11359cd9fcb0113e593d2\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_quest_completions_user\" ON \"quest_completions\"  (\"tenant_id\", \"user_id\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_quest_completions_quest_user\" ON \"quest_completions\"  (\"quest_id\", \"user_id\") ");
    await queryRunner.query("ALTER TABLE \"quest_events\" ADD CONSTRAINT \"FK_918651ae06581fa2a72602d270a\" FOREIGN KEY (\"community_id\") REFERENCES \"communities\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_event_rewards\" ADD CONSTRAINT \"FK_8b105fbab6d7a0ecd1bd4bab8e0\" FOREIGN KEY (\"event_id\") REFERENCES \"quest_events\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_event_reward_allocations\" ADD CONSTRAINT \"FK_49503f730cdf1b373fa0076b5fc\" FOREIGN KEY (\"event_id\") REFERENCES \"quest_events\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_event_reward_allocations\" ADD CONSTRAINT \"FK_b2ccbc916bf26d27aca3bf13d59\" FOREIGN KEY (\"reward_id\") REFERENCES \"quest_event_rewards\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_event_reward_allocations\" ADD CONSTRAINT \"FK_27be85358f3599acc218495c476\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_event_reward_claims\" ADD CONSTRAINT \"FK_dc4950ed6868d8189ab573611d5\" FOREIGN KEY (\"allocation_id\") REFERENCES \"quest_event_reward_allocations\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_event_participants\" ADD CONSTRAINT \"FK_f2f1dd2140d45fba4d4954ecabe\" FOREIGN KEY (\"event_id\") REFERENCES \"quest_events\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_event_participants\" ADD CONSTRAINT \"FK_8ebe22178c0a05f267647f804a4\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quests\" ADD CONSTRAINT \"FK_130cb539538b5bc84d5837bffc8\" FOREIGN KEY (\"community_id\") REFERENCES \"communities\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quests\" ADD CONSTRAINT \"FK_a5c77ca86e7e3e7d404a8bae219\" FOREIGN KEY (\"quest_event_id\") REFERENCES \"quest_events\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_completions\" ADD CONSTRAINT \"FK_5129f91f2bcc2443e7a1e2b3ed2\" FOREIGN KEY (\"quest_id\") REFERENCES \"quests\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"quest_completions\" ADD CONSTRAINT \"FK_8e84ae0522265db66d6d2290ce8\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"quest_completions\" DROP CONSTRAINT \"FK_8e84ae0522265db66d6d2290ce8\"");
    await queryRunner.query("ALTER TABLE \"quest_completions\" DROP CONSTRAINT \"FK_5129f91f2bcc2443e7a1e2b3ed2\"");
    await queryRunner.query("ALTER TABLE \"quests\" DROP CONSTRAINT \"FK_a5c77ca86e7e3e7d404a8bae219\"");
    await queryRunner.query("ALTER TABLE \"quests\" DROP CONSTRAINT \"FK_130cb539538b5bc84d5837bffc8\"");
    await queryRunner.query("ALTER TABLE \"quest_event_participants\" DROP CONSTRAINT \"FK_8ebe22178c0a05f267647f804a4\"");
    await queryRunner.query("ALTER TABLE \"quest_event_participants\" DROP CONSTRAINT \"FK_f2f1dd2140d45fba4d4954ecabe\"");
    await queryRunner.query("ALTER TABLE \"quest_event_reward_claims\" DROP CONSTRAINT \"FK_dc4950ed6868d8189ab573611d5\"");
    await queryRunner.query("ALTER TABLE \"quest_event_reward_allocations\" DROP CONSTRAINT \"FK_27be85358f3599acc218495c476\"");
    await queryRunner.query("ALTER TABLE \"quest_event_reward_allocations\" DROP CONSTRAINT \"FK_b2ccbc916bf26d27aca3bf13d59\"");
    await queryRunner.query("ALTER TABLE \"quest_event_reward_allocations\" DROP CONSTRAINT \"FK_49503f730cdf1b373fa0076b5fc\"");
    await queryRunner.query("ALTER TABLE \"quest_event_rewards\" DROP CONSTRAINT \"FK_8b105fbab6d7a0ecd1bd4bab8e0\"");
    await queryRunner.query("ALTER TABLE \"quest_events\" DROP CONSTRAINT \"FK_918651ae06581fa2a72602d270a\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_quest_completions_quest_user\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_quest_completions_user\"");
    await queryRunner.query("DROP TABLE \"quest_completions\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_quests_community_status\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_quests_event\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_quests_tenant\"");
    await queryRunner.query("DROP TABLE \"quests\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_participants_event_user\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_participants_event_status\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_participants_user\"");
    await queryRunner.query("DROP TABLE \"quest_event_participants\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_reward_claims_allocation\"");
    await queryRunner.query("DROP TABLE \"quest_event_reward_claims\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_reward_allocations_reward_user\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_reward_allocations_event_user\"");
    await queryRunner.query("DROP TABLE \"quest_event_reward_allocations\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_quest_event_rewards_event\"");
    await queryRunner.query("DROP TABLE \"quest_event_rewards\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_quest_events_tenant_slug\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_quest_events_community\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_quest_events_due\"");
    await queryRunner.query("DROP TABLE \"quest_events\"");
  }
}
