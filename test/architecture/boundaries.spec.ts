import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';

// The module-boundary rules of eslint.config.mjs, on files planted in a module for the length of
// the test (type-aware linting needs them on disk, inside the project).
const root = join(import.meta.dirname, '..', '..');
const planted: string[] = [];

async function lint(path: string, code: string): Promise<string[]> {
  const file = join(root, path);
  planted.push(file);
  writeFileSync(file, code);
  const [result] = await new ESLint({ cwd: root }).lintFiles([file]);
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

afterAll(() => {
  for (const file of planted) rmSync(file, { force: true });
});

describe('module boundaries (npm run lint)', () => {
  it("refuses a service that reads another module's table through its entity", async () => {
    const messages = await lint(
      'src/store/planted-violation.service.ts',
      `import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Prize } from '../prizes/entities/prize.entity.js';

@Injectable()
export class PlantedViolationService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  prizes(tenantId: string) {
    return this.dataSource.getRepository(Prize).findBy({ tenantId });
  }
}
`,
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^boundaries\/element-types: store uses a table of prizes/),
        expect.stringMatching(/^local\/own-tables: getRepository: data access belongs in a repository/),
      ]),
    );
  }, 60_000);

  it("refuses SQL text that names another module's table, even in a repository", async () => {
    const messages = await lint(
      'src/store/planted-violation.repository.ts',
      `export const sql = 'SELECT id FROM inventory_items WHERE tenant_id = $1';\n`,
    );
    expect(messages).toEqual([expect.stringMatching(/^local\/own-tables: inventory_items is a table of inventory/)]);
  }, 60_000);

  it("accepts the module's own table in its repository and a join in a named read model", async () => {
    expect(
      await lint('src/store/planted-ok.repository.ts', `export const sql = 'SELECT id FROM store_listings WHERE tenant_id = $1';\n`),
    ).toEqual([]);
    expect(
      await lint(
        'src/store/planted-ok.read-model.ts',
        `export const sql = 'SELECT l.id FROM store_listings l JOIN inventory_items i ON i.id = l.item_id';\n`,
      ),
    ).toEqual([]);
  }, 60_000);
});
