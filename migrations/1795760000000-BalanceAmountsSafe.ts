import type { MigrationInterface, QueryRunner } from 'typeorm';

// A balance and an earned total never go beyond 2^53 - 1, the largest integer a JSON number (and
// the service's arithmetic) carries exactly. The service checked it after its statement, inside
// the credit's transaction; a credit is now one statement that commits on its own, so the table
// refuses such a row itself (400 `amount_too_large`, nothing written). Added NOT VALID and then
// validated: the check of the existing rows takes no lock that stops writes.
export class BalanceAmountsSafe1795760000000 implements MigrationInterface {
  name = 'BalanceAmountsSafe1795760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "resource_balances" ADD CONSTRAINT "ck_resource_balances_amounts_safe" CHECK (balance <= 9007199254740991 AND earned <= 9007199254740991) NOT VALID',
    );
    await queryRunner.query('ALTER TABLE "resource_balances" VALIDATE CONSTRAINT "ck_resource_balances_amounts_safe"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "resource_balances" DROP CONSTRAINT "ck_resource_balances_amounts_safe"');
  }
}
