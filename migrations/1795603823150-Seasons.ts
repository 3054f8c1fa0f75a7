import type { MigrationInterface, QueryRunner } from 'typeorm';

// Generated from the entities, plus the season board's rank index (mixed sort directions, which the
// entity decorator cannot express; as ix_resource_balances_rank).
export class Seasons1795603823150 implements MigrationInterface {
  name = 'Seasons1795603823150';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"season_scores\" (\"season_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"tenant_id\" uuid NOT NULL, \"score\" bigint NOT NULL, \"reached_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_6cd799648c5cce9ea7d42388973\" PRIMARY KEY (\"season_id\", \"user_id\"))");
    await queryRunner.query("CREATE INDEX \"ix_season_scores_rank\" ON \"season_scores\" (\"season_id\", \"score\" DESC, \"reached_at\" ASC, \"user_id\" ASC) WHERE score > 0");
    await queryRunner.query("CREATE TABLE \"season_standings\" (\"season_id\" uuid NOT NULL, \"position\" integer NOT NULL, \"user_id\" uuid NOT NULL, \"tenant_id\" uuid NOT NULL, \"score\" bigint NOT NULL, \"reached_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_bcd4ff5c8e09837cb4c6f18e736\" PRIMARY KEY (\"season_id\", \"position\"))");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_season_standings_user\" ON \"season_standings\"  (\"season_id\", \"user_id\") ");
    await queryRunner.query("CREATE TABLE \"season_schedules\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"resource_type_id\" uuid NOT NULL, \"name\" character varying(200) NOT NULL, \"cron\" character varying(120) NOT NULL, \"time_zone\" character varying(64) NOT NULL, \"reasons\" character varying array, \"quest_ids\" uuid array, \"rewards\" jsonb NOT NULL DEFAULT '[]', \"active\" boolean NOT NULL DEFAULT true, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_ce0bf21a2aa4f9e2216124a45af\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_season_schedules_community\" ON \"season_schedules\"  (\"tenant_id\", \"community_id\") ");
    await queryRunner.query("CREATE TABLE \"seasons\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"resource_type_id\" uuid NOT NULL, \"schedule_id\" uuid, \"number\" integer NOT NULL DEFAULT '1', \"name\" character varying(200) NOT NULL, \"starts_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"ends_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"reasons\" character varying array, \"quest_ids\" uuid array, \"rewards\" jsonb NOT NULL DEFAULT '[]', \"frozen_at\" TIMESTAMP WITH TIME ZONE, \"ranked\" integer, \"paid_through\" integer NOT NULL DEFAULT '0', \"closed_at\" TIMESTAMP WITH TIME ZONE, \"lease_until\" TIMESTAMP WITH TIME ZONE, \"lease_owner\" character varying(64), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_cb8ed53b5fe109dcd4a4449ec9d\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_seasons_schedule_start\" ON \"seasons\"  (\"schedule_id\", \"starts_at\") WHERE schedule_id IS NOT NULL");
    await queryRunner.query("CREATE INDEX \"ix_seasons_closing\" ON \"seasons\"  (\"ends_at\") WHERE closed_at IS NULL");
    await queryRunner.query("CREATE INDEX \"ix_seasons_open\" ON \"seasons\"  (\"resource_type_id\", \"ends_at\") ");
    await queryRunner.query("CREATE INDEX \"ix_seasons_community\" ON \"seasons\"  (\"tenant_id\", \"community_id\", \"starts_at\") ");
    await queryRunner.query("CREATE TABLE \"season_payouts\" (\"season_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"reward\" smallint NOT NULL, \"tenant_id\" uuid NOT NULL, \"position\" integer NOT NULL, \"status\" character varying(16) NOT NULL, \"error\" character varying(500), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_e0388403bbbd5f7784bb37b1335\" PRIMARY KEY (\"season_id\", \"user_id\", \"reward\"))");
    await queryRunner.query("ALTER TABLE \"season_schedules\" ADD CONSTRAINT \"FK_14587159cc9033c944931b3a625\" FOREIGN KEY (\"community_id\") REFERENCES \"communities\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"season_schedules\" ADD CONSTRAINT \"FK_3d77d98837988024c106a1b2bfd\" FOREIGN KEY (\"resource_type_id\") REFERENCES \"resource_types\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"seasons\" ADD CONSTRAINT \"FK_243a82a337b45a70ecd935b69f0\" FOREIGN KEY (\"community_id\") REFERENCES \"communities\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"seasons\" ADD CONSTRAINT \"FK_c34c6f6e09668d8f74759c03c9b\" FOREIGN KEY (\"resource_type_id\") REFERENCES \"resource_types\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"seasons\" ADD CONSTRAINT \"FK_8ef337797b3367e05a49a20dee8\" FOREIGN KEY (\"schedule_id\") REFERENCES \"season_schedules\"(\"id\") ON DELETE SET NULL ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"season_payouts\" ADD CONSTRAINT \"FK_65e1d22afca0860ed15451888ac\" FOREIGN KEY (\"season_id\") REFERENCES \"seasons\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"season_payouts\" DROP CONSTRAINT \"FK_65e1d22afca0860ed15451888ac\"");
    await queryRunner.query("ALTER TABLE \"seasons\" DROP CONSTRAINT \"FK_8ef337797b3367e05a49a20dee8\"");
    await queryRunner.query("ALTER TABLE \"seasons\" DROP CONSTRAINT \"FK_c34c6f6e09668d8f74759c03c9b\"");
    await queryRunner.query("ALTER TABLE \"seasons\" DROP CONSTRAINT \"FK_243a82a337b45a70ecd935b69f0\"");
    await queryRunner.query("ALTER TABLE \"season_schedules\" DROP CONSTRAINT \"FK_3d77d98837988024c106a1b2bfd\"");
    await queryRunner.query("ALTER TABLE \"season_schedules\" DROP CONSTRAINT \"FK_14587159cc9033c944931b3a625\"");
    await queryRunner.query("DROP TABLE \"season_payouts\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_seasons_community\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_seasons_open\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_seasons_closing\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_seasons_schedule_start\"");
    await queryRunner.query("DROP TABLE \"seasons\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_season_schedules_community\"");
    await queryRunner.query("DROP TABLE \"season_schedules\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_season_standings_user\"");
    await queryRunner.query("DROP TABLE \"season_standings\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_season_scores_rank\"");
    await queryRunner.query("DROP TABLE \"season_scores\"");
  }
}
