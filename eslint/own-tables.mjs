// ESLint rule: SQL text that names a table appears only in the repositories (and named read
// models) of the module that owns the table (the module whose entities/ declares it).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const SQL_TABLE = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+"?([a-z_][a-z0-9_]*)"?/gi;
/**
 * The same in schema SQL (migrations, database functions), with the keyword: also an index's or a
 * trigger's table (ON), a foreign key's target (REFERENCES), TRUNCATE, IF [NOT] EXISTS and `public.`.
 */
export const SCHEMA_SQL_TABLE =
  /\b(FROM|JOIN|INTO|UPDATE|TABLE|ON|REFERENCES|TRUNCATE)\s+(?:ONLY\s+)?(?:IF\s+(?:NOT\s+)?EXISTS\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;
let owners;

/** table name -> owning module folder, read from `@Entity('name')` in src/<module>/entities. */
export function tableOwners(root) {
  if (owners) return owners;
  owners = new Map();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.entity.ts')) {
        const module = relative(join(root, 'src'), path).split(sep)[0];
        for (const m of readFileSync(path, 'utf8').matchAll(/@Entity\(\s*'([a-z0-9_]+)'/g)) owners.set(m[1], module);
      }
    }
  };
  walk(join(root, 'src'));
  return owners;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: "SQL names a table only in its owning module's repositories and read models" },
    messages: {
      outside: '{{table}} is a table of {{owner}}: its SQL belongs in a {{owner}} repository (or a named read model)',
      foreign: "{{table}} is a table of {{owner}}: ask that module's service or repository, or add a named read model",
      access: '{{what}}: data access belongs in a repository (or a named read model)',
    },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = relative(root, context.filename);
    const parts = file.split(sep);
    if (parts[0] !== 'src' || parts.length < 3 || file.endsWith('.spec.ts')) return {};
    const module = parts[1];
    const isReadModel = file.endsWith('.read-model.ts');
    const isRepository = file.endsWith('.repository.ts');
    const infrastructure = ['database', 'cli', 'health'].includes(module);
    const dataFile = isRepository || isReadModel || infrastructure;
    // Entity classes imported into this file (from any entities/ folder).
    const entities = new Set();
    const check = (node, text) => {
      for (const m of text.matchAll(SQL_TABLE)) {
        const table = m[1].toLowerCase();
        const owner = tableOwners(root).get(table);
        if (!owner || isReadModel) continue;
        if (owner !== module) context.report({ node, messageId: 'foreign', data: { table, owner } });
        else if (!isRepository && !file.includes(`${sep}migrations${sep}`))
          context.report({ node, messageId: 'outside', data: { table, owner } });
      }
    };
    // Raw SQL through TypeORM (a data source, entity manager, repository or query runner); a
    // dedicated connection's LISTEN and heartbeat are connection management, not data access.
    const DATA_HANDLE = /(^|\.)(em|tx|inner|m|manager|dataSource|queryRunner|runner|repo|repository|\w+Repository)$/;
    const ENTITY_OPS =
      /^(find\w*|exists\w*|count\w*|save|insert|update|upsert|delete|softDelete|remove|increment|decrement|create|getRepository|createQueryBuilder|query)$/;
    return {
      ImportDeclaration: (node) => {
        if (/\/entities\/[^/]+\.entity\.js$/.test(node.source.value) && node.importKind !== 'type')
          for (const s of node.specifiers) if (s.importKind !== 'type') entities.add(s.local.name);
      },
      CallExpression: (node) => {
        if (dataFile) return;
        const callee = node.callee;
        const name =
          callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' && !callee.computed ? callee.property.name : null;
        if (!name) return;
        const first = node.arguments[0];
        if (name === 'InjectRepository' || name === 'getRepository' || name === 'createQueryBuilder')
          context.report({ node, messageId: 'access', data: { what: name } });
        else if (
          name === 'query' &&
          callee.type === 'MemberExpression' &&
          DATA_HANDLE.test(context.sourceCode.getText(callee.object)) &&
          first &&
          (first.type === 'TemplateLiteral' || (first.type === 'Literal' && typeof first.value === 'string'))
        )
          context.report({ node, messageId: 'access', data: { what: 'raw SQL' } });
        else if (ENTITY_OPS.test(name) && first?.type === 'Identifier' && entities.has(first.name))
          context.report({ node, messageId: 'access', data: { what: `${name}(${first.name})` } });
      },
      Literal: (node) => typeof node.value === 'string' && check(node, node.value),
      TemplateLiteral: (node) => check(node, node.quasis.map((q) => q.value.cooked ?? '').join(' ')),
    };
  },
};
