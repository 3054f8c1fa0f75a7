// What the cache unit tests share (not built into dist: tsconfig.build.json excludes *.spec-kit.ts).
import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { Clock } from '../clock/clock.js';

export class StoppedClock extends Clock {
  ms = 1_700_000_000_000;
  override nowMs(): number {
    return this.ms;
  }
}

/** A DataSource with what the caches use (its subscribers), and transactions to commit by hand. */
export function fakeDataSource() {
  const subscribers: EntitySubscriberInterface[] = [];
  const dataSource = { subscribers } as unknown as DataSource;
  const transaction = () => {
    const qr = { isTransactionActive: true, data: {} } as unknown as QueryRunner & { isTransactionActive: boolean };
    const em = { queryRunner: qr } as unknown as EntityManager;
    const emit = (event: 'afterTransactionCommit' | 'afterTransactionRollback', outermost: boolean) => {
      if (outermost) qr.isTransactionActive = false;
      for (const s of subscribers) void s[event]?.({ queryRunner: qr } as never);
    };
    return {
      em,
      releaseSavepoint: () => emit('afterTransactionCommit', false),
      commit: () => emit('afterTransactionCommit', true),
      rollback: () => emit('afterTransactionRollback', true),
    };
  };
  return { dataSource, transaction };
}
