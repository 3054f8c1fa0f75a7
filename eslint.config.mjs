// ESLint (typescript-eslint, type-aware) over the service, its tests, the bench, the client and the
// operator console (console/, typed by console/tsconfig.json).
// Formatting is Prettier's (`npm run format`); eslint-config-prettier turns off the rules it owns.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import ownTables from './eslint/own-tables.mjs';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'bench/results/**',
      'clients/typescript/schema.d.ts',
      'clients/typescript/contract.ts',
      'clients/typescript/dist/**',
      'clients/**/node_modules/**',
      '.data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Promises are awaited, returned or marked `void` on purpose: a forgotten one loses errors.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // An async method that fulfils an async contract (a store, a strategy) needs no await of its own.
      '@typescript-eslint/require-await': 'off',
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
    },
  },
  {
    // V8 gives an object literal with a getter or setter a hidden class of its own at every
    // evaluation: on a request's path that cost a third of a small read's CPU, mostly in GC
    // (docs/performance.md, "Night of 2026-11-27"). A class's accessors live on its prototype.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression > Property[kind=/^(get|set)$/]',
          message: 'No getters or setters in object literals: declare a class (its accessors live on the prototype).',
        },
      ],
    },
  },
  {
    // HTTP bodies in tests (supertest's `res.body`, `fetch().json()`) are `any` by design: the
    // assertions on them are the type check, so the no-unsafe-* family would only add casts.
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JS files (scripts, jest config and setup): no type information.
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
  {
    // Module boundaries (docs/architecture.md). A module's tables are its own: another module's
    // entity classes are imported as values only by entity files (foreign keys) and named read
    // models; the data-access helpers only by repositories and read models; SQL text that names
    // a table only in its owning module's repositories (local/own-tables).
    files: ['src/**/*.ts'],
    plugins: { boundaries, local: { rules: { 'own-tables': ownTables } } },
    settings: {
      'boundaries/include': ['src/**/*.ts'],
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/elements': [
        { type: 'entity', pattern: 'src/*/entities/*.entity.ts', mode: 'full', capture: ['module'] },
        { type: 'read-model', pattern: 'src/*/**/*.read-model.ts', mode: 'full', capture: ['module'] },
        { type: 'repository', pattern: 'src/*/**/*.repository.ts', mode: 'full', capture: ['module'] },
        { type: 'data-helper', pattern: ['src/database/find-one-fast.ts', 'src/database/prepared-query.ts'], mode: 'full' },
        { type: 'module-file', pattern: 'src/*/**/*.ts', mode: 'full', capture: ['module'] },
        { type: 'app-file', pattern: 'src/*.ts', mode: 'full' },
      ],
    },
    rules: {
      'boundaries/element-types': [
        'error',
        {
          default: 'allow',
          rules: [
            {
              from: ['repository', 'module-file'],
              disallow: [['entity', { module: '!${from.module}' }]],
              importKind: 'value',
              message:
                "${file.module} uses a table of ${dependency.module}: ask that module's service or repository, or add a named read model",
            },
            {
              from: ['module-file', 'entity', 'app-file'],
              disallow: ['data-helper'],
              message: 'SQL helpers are for repositories and read models',
            },
          ],
        },
      ],
      'local/own-tables': 'error',
    },
  },
  prettier,
);
