import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { SCHEMA_SQL_TABLE, tableOwners } from '../../eslint/own-tables.mjs';

// Table ownership (eslint/own-tables.mjs: a table's SQL only in its module) for the SQL the lint
// does not see: the migrations' statements and the database functions. A function declares its
// owning module with `COMMENT ON FUNCTION name(args) IS 'owner: <module>'` in a migration, and its
// body names only that module's tables (reads too, as a repository's SQL); another module's work
// is a call to that module's function. A migration's statement names one module's tables, a
// foreign key's target (REFERENCES) aside, as an entity names the entity it refers to.

/** One break of the rule: `key` names it for the list of past exceptions. */
export interface Finding {
  file: string;
  line: number;
  key: string;
  message: string;
}

export interface Ownership {
  /** table -> module */
  tables: Map<string, string>;
  /** database function -> module, from the owner comments of the migrations */
  functions: Map<string, string>;
  /** the module folders of src/ */
  modules: Set<string>;
}

const CREATE_FUNCTION = /\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)/i;
const OWNER_COMMENT = /\bCOMMENT\s+ON\s+FUNCTION\s+(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?\s*\([^)]*\)\s+IS\s+'owner: ([^']*)'/gi;

/** The string and template literals of a TypeScript file (a template's pieces joined), with their lines. */
export function sqlLiterals(file: string, text: string): { line: number; sql: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { line: number; sql: string }[] = [];
  const visit = (node: ts.Node): void => {
    let sql: string | null = null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) sql = node.text;
    else if (ts.isTemplateExpression(node)) sql = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
    if (sql === null) return ts.forEachChild(node, visit);
    out.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, sql });
  };
  visit(source);
  return out;
}

/** The tables (with their modules) a piece of SQL names, its `--` comments left out. */
function named(sql: string, tables: Map<string, string>, options: { references: boolean }): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of sql.replace(/--[^\n]*/g, ' ').matchAll(SCHEMA_SQL_TABLE)) {
    const owner = tables.get(m[2].toLowerCase());
    if (owner && (options.references || m[1].toUpperCase() !== 'REFERENCES')) found.set(m[2].toLowerCase(), owner);
  }
  return found;
}

/** function -> owner, from the `COMMENT ON FUNCTION … IS 'owner: …'` statements of these migrations. */
export function functionOwners(migrations: { file: string; text: string }[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const { file, text } of migrations)
    for (const { sql } of sqlLiterals(file, text)) for (const m of sql.matchAll(OWNER_COMMENT)) owners.set(m[1].toLowerCase(), m[2]);
  return owners;
}

/** What a function's definition breaks: no owner, an owner that is no module, a table of another module. */
function checkFunction(file: string, line: number, name: string, sql: string, own: Ownership): Finding[] {
  const owner = own.functions.get(name);
  const key = `function ${name}`;
  if (!owner)
    return [{ file, line, key, message: `function ${name} declares no owner: COMMENT ON FUNCTION ${name}(…) IS 'owner: <module>'` }];
  if (!own.modules.has(owner)) return [{ file, line, key, message: `function ${name}: owner ${owner} is no module of src/` }];
  return [...named(sql, own.tables, { references: true })]
    .filter(([, module]) => module !== owner)
    .map(([table, module]) => ({
      file,
      line,
      key,
      message: `function ${name} (owner: ${owner}) names ${table}, a table of ${module}: call a function of ${module}`,
    }));
}

/** A migration's findings: each function it creates, each other statement naming tables of two modules. */
export function checkMigration(file: string, text: string, own: Ownership): Finding[] {
  const findings: Finding[] = [];
  for (const { line, sql } of sqlLiterals(file, text)) {
    const fn = CREATE_FUNCTION.exec(sql);
    if (fn) {
      findings.push(...checkFunction(file, line, fn[1].toLowerCase(), sql, own));
      continue;
    }
    const tables = named(sql, own.tables, { references: false });
    const modules = new Set(tables.values());
    if (modules.size > 1)
      findings.push({
        file,
        line,
        key: `statement ${[...tables.keys()].sort().join('+')}`,
        message: `a statement names tables of ${[...modules].sort().join(', ')} (${[...tables.keys()].sort().join(', ')}): one module's per statement`,
      });
  }
  return findings;
}

/** The findings of the database functions as PostgreSQL holds them (src/queries/database-functions.sql). */
export function checkFunctionsDump(file: string, text: string, own: Ownership): Finding[] {
  const starts = [...text.matchAll(/^CREATE OR REPLACE FUNCTION public\.([a-z_][a-z0-9_]*)\(/gm)];
  return starts.flatMap((m, i) => {
    const body = text.slice(m.index, starts[i + 1]?.index ?? text.length);
    const line = text.slice(0, m.index).split('\n').length;
    return checkFunction(file, line, m[1], body, own);
  });
}

/** The repository's own state: its tables' owners, its migrations and their function owners. */
export function repositoryOwnership(root: string): { own: Ownership; migrations: { file: string; text: string }[] } {
  const dir = join(root, 'migrations');
  const migrations = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .sort()
    .map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
  const modules = new Set(
    readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name),
  );
  return { own: { tables: tableOwners(root), functions: functionOwners(migrations), modules }, migrations };
}
