import type { MigrationInterface, QueryRunner } from 'typeorm';

// A reward names the chain of the wallet address a claim gives (`evm`, `sui` for zkLogin wallets,
// or `any`); existing rewards keep taking EVM addresses. A claim's address widens to a Sui
// address's 66 characters in place (the generator's drop and re-add would lose the claims'
// addresses).
export class RewardWalletChain1795816189021 implements MigrationInterface {
  name = 'RewardWalletChain1795816189021';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "quest_event_rewards" ADD "wallet_chain" character varying(8) NOT NULL DEFAULT \'evm\'');
    await queryRunner.query('ALTER TABLE "quest_event_reward_claims" ALTER COLUMN "wallet_address" TYPE character varying(66)');
  }

  // Down cannot keep a Sui address in 42 characters: such claims lose their address.
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "quest_event_reward_claims" ALTER COLUMN "wallet_address" TYPE character varying(42) USING CASE WHEN length("wallet_address") <= 42 THEN "wallet_address" END',
    );
    await queryRunner.query('ALTER TABLE "quest_event_rewards" DROP COLUMN "wallet_chain"');
  }
}
