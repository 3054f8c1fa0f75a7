// Types of the helpers own-tables.mjs exports for test/architecture/sql-ownership.ts.
import type { Rule } from 'eslint';

declare const rule: Rule.RuleModule;
export default rule;
/** A table named in schema SQL: group 1 the keyword before it, group 2 the name. */
export const SCHEMA_SQL_TABLE: RegExp;
/** table name -> owning module folder (src/<module>/entities declares it). */
export function tableOwners(root: string): Map<string, string>;
