import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkFunctionsDump, checkMigration, functionOwners, type Finding, repositoryOwnership } from './sql-ownership.js';

// Table ownership in the SQL the lint does not see (test/architecture/sql-ownership.ts has the rule).
const root = join(import.meta.dirname, '..', '..');
const fixtures = join(import.meta.dirname, 'fixtures', 'sql-ownership');

/**
 * Past statements a migration may not be rewritten to fix (a migration's SQL is history), each
 * with its reason. The list only shrinks: an entry that no longer matches a finding fails the test.
 */
const PAST: { file: string; key: string; why: string }[] = [
  {
    file: '1795603758601-StorePurchaseFunction.ts',
    key: 'function store_purchase_item',
    why: 'the purchase in one statement before its split by module (PurchaseFunctionsByModule replaces it)',
  },
  {
    file: '1795649011420-StorePurchasePriceCheck.ts',
    key: 'function store_purchase_item',
    why: 'the purchase in one statement before its split by module (PurchaseFunctionsByModule replaces it)',
  },
  {
    file: '1795802725159-BindScopedScoreTypes.ts',
    key: 'statement quest_events+resource_types',
    why: "a one-time backfill: a scoped type takes the id of the event it scored, read from the event's table",
  },
  {
    file: '1795830000000-EventCompletionInSteps.ts',
    key: 'statement quest_event_participants+quest_events',
    why: 'a one-time backfill: the final standings of the events already completed, read from their state',
  },
];

const show = (findings: Finding[]) => findings.map((f) => `${f.file}:${f.line} ${f.message}`);

describe('table ownership in migrations and database functions', () => {
  const { own, migrations } = repositoryOwnership(root);

  it("names one module's tables per migration statement, and only its owner's in a function (past exceptions named)", () => {
    const findings = migrations.flatMap(({ file, text }) => checkMigration(file, text, own));
    const excused = (f: Finding) => PAST.some((p) => p.file === f.file && p.key === f.key);
    expect(show(findings.filter((f) => !excused(f)))).toEqual([]);
    // Each exception still excuses something: one fixed or gone leaves the list.
    expect(PAST.filter((p) => !findings.some((f) => f.file === p.file && f.key === p.key))).toEqual([]);
  });

  it("declares every database function's owner, whose tables alone its body names (src/queries/database-functions.sql)", () => {
    const file = 'src/queries/database-functions.sql';
    const findings = checkFunctionsDump(file, readFileSync(join(root, file), 'utf8'), own);
    expect(show(findings)).toEqual([]);
    // The dump holds the functions the rule is about: the purchase and the modules' parts of it.
    expect([...own.functions.keys()]).toEqual(expect.arrayContaining(['store_purchase_item', 'cgs_debit_price', 'cgs_grant_item']));
  });

  describe('on planted files', () => {
    const planted = (name: string) => ({ file: name, text: readFileSync(join(fixtures, name), 'utf8') });
    const violation = planted('violation.migration.ts');
    const clean = planted('clean.migration.ts');
    const withOwners = (m: { file: string; text: string }) => ({ ...own, functions: functionOwners([m]) });

    it('reports a function that writes a foreign table, one without an owner, and a statement over two modules', () => {
      expect(show(checkMigration(violation.file, violation.text, withOwners(violation)))).toEqual([
        expect.stringMatching(
          /^violation\.migration\.ts:4 function cgs_planted_grant \(owner: store\) names item_grants, a table of inventory/,
        ),
        expect.stringMatching(/^violation\.migration\.ts:10 function cgs_planted_orphan declares no owner/),
        expect.stringMatching(
          /^violation\.migration\.ts:\d+ a statement names tables of inventory, store \(inventory_items, store_listings\)/,
        ),
      ]);
    });

    it("accepts a function on its owner's tables, a foreign key to another module and an index", () => {
      expect(show(checkMigration(clean.file, clean.text, withOwners(clean)))).toEqual([]);
    });

    it("reports a dumped function that names a table outside its owner's, and not one within", () => {
      const dump = (name: string) => readFileSync(join(fixtures, name), 'utf8');
      expect(show(checkFunctionsDump('violation-functions.sql', dump('violation-functions.sql'), withOwners(violation)))).toEqual([
        expect.stringMatching(
          /^violation-functions\.sql:4 function cgs_planted_grant \(owner: store\) names item_grants, a table of inventory/,
        ),
      ]);
      expect(show(checkFunctionsDump('clean-functions.sql', dump('clean-functions.sql'), withOwners(clean)))).toEqual([]);
    });
  });
});
