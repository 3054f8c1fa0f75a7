import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Referrals1795356436693 implements MigrationInterface {
  name = 'Referrals1795356436693';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"referrals\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"referrer_id\" uuid NOT NULL, \"referred_id\" uuid NOT NULL, \"community_id\" uuid, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"PK_ea9980e34f738b6252817326c08\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_referrals_referrer\" ON \"referrals\"  (\"referrer_id\", \"community_id\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_referrals_community\" ON \"referrals\"  (\"referred_id\", \"community_id\") WHERE community_id IS NOT NULL");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_referrals_signup\" ON \"referrals\"  (\"referred_id\") WHERE community_id IS NULL");
    await queryRunner.query("ALTER TABLE \"referrals\" ADD CONSTRAINT \"FK_18af9fcaffac6d6d3b28130e149\" FOREIGN KEY (\"referrer_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"referrals\" ADD CONSTRAINT \"FK_507a2818bf5524662b068c2e81c\" FOREIGN KEY (\"referred_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"referrals\" DROP CONSTRAINT \"FK_507a2818bf5524662b068c2e81c\"");
    await queryRunner.query("ALTER TABLE \"referrals\" DROP CONSTRAINT \"FK_18af9fcaffac6d6d3b28130e149\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_referrals_signup\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_referrals_community\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_referrals_referrer\"");
    await queryRunner.query("DROP TABLE \"referrals\"");
  }
}
