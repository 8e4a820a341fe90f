// The web app's rules, checked by `npm test`: TypeScript, hooks, accessibility, and the import
// boundaries of the folder layout (web/README.md, "Layout").
import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import { importX } from 'eslint-plugin-import-x'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

// A feature uses another feature only through its public index.ts; app/ composes and may
// import anything; shared code (components/, lib/) never imports features or app/.
const boundaries = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`, ...features.filter((other) => other !== feature).map((other) => `./${other}/index.ts`)],
    message: 'Use another feature only through its index.ts (or compose both in app/).',
  })),
  { target: './src/features', from: './src/app', message: 'Features do not import app/; app/ composes features.' },
  {
    target: ['./src/components', './src/lib'],
    from: ['./src/features', './src/app'],
    message: 'Shared code does not import features or app/.',
  },
]

export default tseslint.config(
  { ignores: ['dist/', 'public/', 'coverage/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  // Plain JavaScript (this file, the build scripts) is outside the TypeScript project.
  { files: ['**/*.{js,mjs}'], extends: [tseslint.configs.disableTypeChecked] },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended, jsxA11y.flatConfigs.recommended],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['e2e/**', 'scripts/**', '*.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: boundaries }],
    },
  },
)
