import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSql, QUERIES_DIR } from '../../src/cli/sql-generator.js';
import { sqlMethods } from '../../src/database/repository.js';
import { useTestApp } from '../helpers/test-app.js';

// The SQL each repository emits is committed under src/queries (`npm run sql`), so a reviewer sees
// every query change in a diff; this fails when the code and the committed files disagree.
describe('committed SQL (src/queries)', () => {
  const t = useTestApp();

  it('matches what the repositories emit', async () => {
    const generated = await generateSql(t.app);
    const dir = join(import.meta.dirname, '..', '..', QUERIES_DIR);
    const committed = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.sql')) : [];
    expect(committed.sort()).toEqual([...generated.keys()].sort());
    for (const [file, text] of generated) expect({ file, text: readFileSync(join(dir, file), 'utf8') }).toEqual({ file, text });
  });

  it('has an example for every annotated method that reaches the database', async () => {
    const generated = [...(await generateSql(t.app)).values()].join('\n');
    for (const m of sqlMethods()) expect(generated).toContain(`-- ${m.target.name}.${m.method}`);
    // An example that returns before its first statement documents nothing: give it other arguments.
    expect(generated).not.toContain('-- (no statement');
  });
});
