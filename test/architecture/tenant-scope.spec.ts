import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', '..');
const UUID_HOME = 'src/common/validation/uuid.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [p] : [];
  });
}

type Parsed = { rel: string; sf: ts.SourceFile }[];
const parse = (rel: string, text: string) => ({ rel, sf: ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true) });
const parsed: Parsed = sourceFiles(join(root, 'src')).map((file) => parse(relative(root, file), readFileSync(file, 'utf8')));

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/** The classes that extend `TenantScopedRepository`, with their decorators' text and their public methods' first parameter. */
function scopedRepositories(files: Parsed): { name: string; decorated: boolean; methods: { name: string; first: string }[] }[] {
  const found: ReturnType<typeof scopedRepositories> = [];
  for (const { sf } of files)
    walk(sf, (node) => {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const base = node.heritageClauses?.flatMap((h) => h.types.map((t) => t.expression.getText(sf)));
      if (!base?.includes('TenantScopedRepository')) return;
      const decorators = ts.getDecorators(node) ?? [];
      const methods = node.members.filter(ts.isMethodDeclaration).filter((m) => {
        const mods = ts.getModifiers(m) ?? [];
        return !mods.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword);
      });
      found.push({
        name: node.name.text,
        decorated: decorators.some((d) => d.expression.getText(sf).startsWith('TenantScoped(')),
        methods: methods.map((m) => ({ name: m.name.getText(sf), first: m.parameters[0]?.getText(sf) ?? '(none)' })),
      });
    });
  return found;
}

/** `UUID_RE.test(...)` as the condition that picks a lookup (`? findById : findBySlug`), by file and line. */
function lookupChoices(files: Parsed): string[] {
  const found: string[] = [];
  for (const { rel, sf } of files) {
    if (rel === UUID_HOME) continue;
    walk(sf, (node) => {
      if (ts.isConditionalExpression(node) && node.condition.getText(sf).includes('UUID_RE.test('))
        found.push(`${rel}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`);
    });
  }
  return found;
}

/** The tenant's id first, or a row whose type names the tenant (`InTenant<...>`, an inline type or a `Pick` with it). */
const scopedFirst = (first: string) =>
  /^tenantId: string$/.test(first) || /^\w+: (InTenant<|\{[^}]*\btenantId: string|Pick<\w+, [^>]*'tenantId')/.test(first);

const unscoped = (repositories: ReturnType<typeof scopedRepositories>) =>
  repositories.flatMap((r) => r.methods.filter((m) => !scopedFirst(m.first)).map((m) => `${r.name}.${m.name}(${m.first}`));

describe('tenant-scoped repositories', () => {
  const repositories = scopedRepositories(parsed);

  it('finds the repositories it is about', () => {
    expect(repositories.map((r) => r.name)).toEqual(
      expect.arrayContaining(['CommunitiesRepository', 'UsersRepository', 'QuestsRepository']),
    );
  });

  it('declare their table with @TenantScoped', () => {
    expect(repositories.filter((r) => !r.decorated).map((r) => r.name)).toEqual([]);
  });

  it('take the tenant first in every public method: its id, or a row that names it', () => {
    expect(unscoped(repositories)).toEqual([]);
  });

  it('would catch a planted method without the tenant and a class without its table', () => {
    const planted = scopedRepositories([
      parse(
        'planted.repository.ts',
        `class PlantedRepository extends TenantScopedRepository<Row> {
          findByName(name: string) {}
          insert(row: InTenant<Partial<Row>>) {}
          page(tenantId: string) {}
        }`,
      ),
    ]);
    expect(unscoped(planted)).toEqual(['PlantedRepository.findByName(name: string']);
    expect(planted.filter((r) => !r.decorated)).toHaveLength(1);
  });
});

describe('telling an id from a slug', () => {
  it(`happens in ${UUID_HOME} only (refOf, idOf, TenantScopedRepository.findByIdOrSlug)`, () => {
    expect(lookupChoices(parsed)).toEqual([]);
  });

  it('would catch the planted idiom', () => {
    const planted = parse('src/planted.ts', 'const x = UUID_RE.test(ref) ? repo.findById(t, ref) : repo.findBySlug(t, ref);');
    expect(lookupChoices([planted])).toEqual(['src/planted.ts:1']);
  });
});
