import type { MigrationInterface, QueryRunner } from 'typeorm';
import { STORE_PURCHASE_ITEM as FROM_RANDOM_START } from './1795649011420-StorePurchasePriceCheck.js';

// Written by hand (TypeORM does not model functions). store_purchase_item's two WAITING takes (an
// item's supply shard, then the listing's) lock in shard order instead of from the caller's random
// start: PostgreSQL keeps the lock on a row it waited for and then passed over (its holder sold it
// out), so two waiters from different starts held shards in opposite orders and deadlocked. The
// takes that skip locked shards keep their random start. Otherwise as StorePurchasePriceCheck.
const WAITING_TAKES: [string, string][] = [
  ['ORDER BY s.shard >= p_item_shard DESC, s.shard LIMIT 1 FOR UPDATE);', 'ORDER BY s.shard LIMIT 1 FOR UPDATE);'],
  ['ORDER BY s.shard >= p_listing_shard DESC, s.shard LIMIT 1 FOR UPDATE);', 'ORDER BY s.shard LIMIT 1 FOR UPDATE);'],
];

function replaced(source: string, pairs: [string, string][]): string {
  return pairs.reduce((text, [from, to]) => {
    if (text.split(from).length !== 2) throw new Error(`ShardWaitOrder: expected one "${from}" in store_purchase_item`);
    return text.replace(from, to);
  }, source.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
}

export class ShardWaitOrder1795708646886 implements MigrationInterface {
  name = 'ShardWaitOrder1795708646886';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(replaced(FROM_RANDOM_START, WAITING_TAKES));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(replaced(FROM_RANDOM_START, []));
  }
}
