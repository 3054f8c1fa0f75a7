import type { MigrationInterface, QueryRunner } from 'typeorm';

export class LoginIdentitiesWallets1795356894998 implements MigrationInterface {
  name = 'LoginIdentitiesWallets1795356894998';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"wallets\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"tenant_id\" uuid NOT NULL, \"user_id\" uuid NOT NULL, \"provider\" character varying(16) NOT NULL, \"chain\" character varying(32) NOT NULL, \"address\" character varying(128) NOT NULL, \"claim_iss\" character varying(255), \"claim_aud\" character varying(255), \"claim_sub\" character varying(255), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"PK_8402e5df5a30a229380e83e4f7e\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_wallets_chain_address\" ON \"wallets\"  (\"tenant_id\", \"chain\", \"address\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_wallets_user_provider_chain\" ON \"wallets\"  (\"tenant_id\", \"user_id\", \"provider\", \"chain\") ");
    await queryRunner.query("CREATE TABLE \"identities\" (\"id\" uuid NOT NULL DEFAULT gen_random_uuid(), \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), \"tenant_id\" uuid NOT NULL, \"provider\" character varying(16) NOT NULL, \"subject_id\" character varying(255) NOT NULL, \"user_id\" uuid NOT NULL, \"id_token_enc\" text, \"access_token_enc\" text, \"refresh_token_enc\" text, \"last_login_at\" TIMESTAMP WITH TIME ZONE, CONSTRAINT \"PK_7b2f8cccf4ac6a2d7e6e9e8b1f6\" PRIMARY KEY (\"id\"))");
    await queryRunner.query("CREATE INDEX \"ix_identities_user\" ON \"identities\"  (\"user_id\") ");
    await queryRunner.query("CREATE UNIQUE INDEX \"uq_identities_tenant_provider_subject\" ON \"identities\"  (\"tenant_id\", \"provider\", \"subject_id\") ");
    await queryRunner.query("CREATE TABLE \"used_nonces\" (\"tenant_id\" uuid NOT NULL, \"kind\" character varying(16) NOT NULL, \"nonce\" character varying(128) NOT NULL, \"expires_at\" TIMESTAMP WITH TIME ZONE NOT NULL, \"created_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"PK_833b390719d1b81688fad5c5555\" PRIMARY KEY (\"tenant_id\", \"kind\", \"nonce\"))");
    await queryRunner.query("CREATE INDEX \"ix_used_nonces_expires\" ON \"used_nonces\"  (\"expires_at\") ");
    await queryRunner.query("ALTER TABLE \"wallets\" ADD CONSTRAINT \"FK_92558c08091598f7a4439586cda\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query("ALTER TABLE \"identities\" ADD CONSTRAINT \"FK_88e77c008cfcfa6a87027a99bde\" FOREIGN KEY (\"user_id\") REFERENCES \"users\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE \"identities\" DROP CONSTRAINT \"FK_88e77c008cfcfa6a87027a99bde\"");
    await queryRunner.query("ALTER TABLE \"wallets\" DROP CONSTRAINT \"FK_92558c08091598f7a4439586cda\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_used_nonces_expires\"");
    await queryRunner.query("DROP TABLE \"used_nonces\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_identities_tenant_provider_subject\"");
    await queryRunner.query("DROP INDEX \"public\".\"ix_identities_user\"");
    await queryRunner.query("DROP TABLE \"identities\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_wallets_user_provider_chain\"");
    await queryRunner.query("DROP INDEX \"public\".\"uq_wallets_chain_address\"");
    await queryRunner.query("DROP TABLE \"wallets\"");
  }
}
