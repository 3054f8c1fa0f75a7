import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Communities1795356707160 implements MigrationInterface {
  name = 'Communities1795356707160';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"communities\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"slug\" character varying(64) NOT NULL, \"name\" character varying(200) NOT NULL, \"description\" text NOT NULL DEFAULT '', \"image_url\" character varying(2048), \"banner_url\" character varying(2048), \"links\" jsonb NOT NULL DEFAULT '[]', \"member_count\" integer NOT NULL DEFAULT '0', CONSTRAINT \"PK_fea1fe83c86ccde9d0a089e7ea2\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_communities_tenant_slug\" ON \"communities\"  (\"tenant_id\", \"slug\") ");
    await queryRunner.query("CREATE TABLE \"community_members\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"community_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"referrer_id\" uuid, \"joined_at\" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT \"PK_03dff82f9cfcb02498e9f5fc640\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_community_members_user\" ON \"community_members\"  (\"tenant_id\", \"user_id\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_community_members_community_user\" ON \"community_members\"  (\"community_id\", \"user_id\") ");
    await queryRunner.query("ALTER TABLE \"communities\" ADD CONSTRAINT \"FK_f3ae5fbd9b335d203c4d7e94e0f\" FOREIGN KEY (\"tenant_id\") REFERENCES \"tenants\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"community_members\" ADD CONSTRAINT \"FK_46eb2c3e2d8b84acbd9a78974ab\" FOREIGN KEY (\"community_id\") REFERENCES \"communities\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"community_members\" ADD CONSTRAINT \"FK_59ac0a0f039c16f8429ec9bda5d\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"community_members\" ADD CONSTRAINT \"FK_834104b62caff8aefdac8d4c905\" FOREIGN KEY (\"referrer_id\") REFERENCES \"users\"(\"id\") ON DELETE SET NULL ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"community_members\" DROP CONSTRAINT \"FK_834104b62caff8aefdac8d4c905\"");
    await queryRunner.query("ALTER TABLE \"community_members\" DROP CONSTRAINT \"FK_59ac0a0f039c16f8429ec9bda5d\"");
    await queryRunner.query("ALTER TABLE \"community_members\" DROP CONSTRAINT \"FK_46eb2c3e2d8b84acbd9a78974ab\"");
    await queryRunner.query("ALTER TABLE \"communities\" DROP CONSTRAINT \"FK_f3ae5fbd9b335d203c4d7e94e0f\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_community_members_community_user\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_community_members_user\"");
    await queryRunner.query("DROP TABLE \"community_members\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_communities_tenant_slug\"");
    await queryRunner.query("DROP TABLE \"communities\"");
  }
}
