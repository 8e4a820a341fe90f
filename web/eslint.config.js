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

// The features from the lowest up (web/README.md, "Layout"): each may use only those before it,
// so features never import each other in a circle.
const featureOrder = [
  'auth',
  'uploads',
  'follows',
  'users',
  'safety',
  'posts',
  'lists',
  'notifications',
  'messages',
  'push',
  'discover',
  'live',
  'moderation',
  'invites',
  'account',
  'apps',
]
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const unplaced = features.filter((feature) => !featureOrder.includes(feature))
if (unplaced.length > 0) throw new Error(`Place ${unplaced.join(', ')} in featureOrder (eslint.config.js).`)

// A feature uses a lower feature only through its public index.ts; app/ composes and may
// import anything; shared code (components/, lib/) never imports features or app/.
const boundaries = [
  ...featureOrder.map((feature, place) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`, ...featureOrder.slice(0, place).map((lower) => `./${lower}/index.ts`)],
    message: 'Use a lower feature only through its index.ts (order: featureOrder), or compose both in app/.',
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
      // Without these the cycle check skips every TypeScript module it reaches.
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: boundaries }],
      'import-x/no-cycle': 'error',
    },
  },
)
