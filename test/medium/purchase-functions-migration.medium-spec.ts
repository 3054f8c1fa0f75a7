import { PurchaseFunctionsByModule1796200000000 } from '../../migrations/1796200000000-PurchaseFunctionsByModule.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { inRolledBackTransaction } from './fixtures.js';

type Run = (sql: string) => Promise<{ name: string; owner: string | null; source: string }[]>;

/** The database's own functions (not an extension's), with their owner comments and sources. */
const functions = (run: Run) =>
  run(
    `SELECT p.proname AS name, obj_description(p.oid, 'pg_proc') AS owner, p.prosrc AS source FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
      ORDER BY p.proname`,
  );

describe('migration PurchaseFunctionsByModule (medium: the migrated database)', () => {
  let t: ModuleTest;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [] });
  });
  afterAll(() => t.close());

  it('gives every database function an owner, and store_purchase_item calls the modules for their tables', async () => {
    const migrated = await functions((sql) => t.dataSource.query(sql));
    expect(migrated.filter((f) => !/^owner: [a-z-]+$/.test(f.owner ?? '')).map((f) => f.name)).toEqual([]);
    expect(Object.fromEntries(migrated.map((f) => [f.name, f.owner]))).toMatchObject({
      store_purchase_item: 'owner: store',
      cgs_lock_balances: 'owner: resources',
      cgs_debit_price: 'owner: resources',
      cgs_insert_notifications: 'owner: notifications',
      cgs_grant_item: 'owner: inventory',
    });
    const purchase = migrated.find((f) => f.name === 'store_purchase_item')!.source;
    expect(purchase).not.toMatch(/\b(FROM|JOIN|INTO|UPDATE)\s+(resource_\w+|notifications|inventory_items|item_grants|user_items)\b/);
    expect(purchase).toMatch(/cgs_lock_balances\([\s\S]*cgs_debit_price\([\s\S]*cgs_insert_notifications\([\s\S]*cgs_grant_item\(/);
  });

  it('down puts the steps back inline and drops the new functions; up brings them back', async () => {
    await inRolledBackTransaction(t.dataSource, async (qr) => {
      const migration = new PurchaseFunctionsByModule1796200000000();
      await migration.down(qr);
      const down = await functions((sql) => qr.query(sql));
      expect(down.map((f) => f.name)).not.toEqual(expect.arrayContaining(['cgs_debit_price']));
      expect(down.filter((f) => f.owner !== null)).toEqual([]);
      expect(down.find((f) => f.name === 'store_purchase_item')!.source).toMatch(
        /INSERT INTO resource_ledger[\s\S]*INSERT INTO item_grants/,
      );
      await migration.up(qr);
      const up = await functions((sql) => qr.query(sql));
      expect(up.map((f) => f.name)).toEqual(
        expect.arrayContaining(['cgs_lock_balances', 'cgs_debit_price', 'cgs_insert_notifications', 'cgs_grant_item']),
      );
      expect(up.find((f) => f.name === 'store_purchase_item')!.source).toContain('cgs_grant_item(');
    });
  });
});
