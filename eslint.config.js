// One lint configuration for the whole workspace: type-aware typescript-eslint rules that matter
// for a durable runtime (floating promises, exhaustive unions, type-only imports) plus import
// hygiene. Formatting belongs to Prettier.
import js from '@eslint/js';
import globals from 'globals';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.turbo/**',
      'docs/.vitepress/cache/**',
      '**/__fixtures__/**',
      'packages/native/index.js',
      'packages/native/index.d.ts',
      'packages/native/target/**',
      // The release check's app is type-checked against the packed tarballs, in its own folder.
      'tools/release-check/app/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/consistent-type-exports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/require-await': 'off',
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-extraneous-dependencies': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@duro/*/src/*', '@duro/*/dist/*'],
              message: 'Import another package through its entry, not its internals.',
            },
          ],
        },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // import-x's resolver fails on the config's imports of VitePress, which bundles its own
    // types; the folder holds the site's configuration only, with nothing that could form a cycle.
    files: ['docs/.vitepress/**/*.ts'],
    rules: { 'import-x/no-cycle': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // CommonJS programs, such as the duroxide-node programs the drop-in runs unchanged.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
