/**
 * score-api's own lint on the folders: its eslint.config.mjs is `export { default } from
 * '@snapshot-labs/eslint-config'` (a dev dependency here, the version score-api's package.json
 * asks for), and its package.json names `@snapshot-labs/prettier-config` for prettier. The folders
 * are laid out in a temporary score-api tree (src/strategies/strategies/<name>,
 * src/strategies/validations/<name>) with a package.json holding score-api's dependencies (for
 * import-x/no-extraneous-dependencies) and that prettier config, then linted with the real config:
 * catch variables, import order, prefer-template, prettier, typescript-eslint's recommended rules.
 *
 * eslint-plugin-import-x is pinned to 4.17.1, the version score-api's yarn.lock holds: 4.18 orders
 * `./rules` and `../../utils` the other way round. One difference stays: score-api's yarn.lock pins prettier 3.0.3, this repository runs prettier
 * 3.10, and the two break a few constructs differently (nested ternaries, long unions, member
 * expressions inside a template literal). The folders avoid those constructs, so both agree; a
 * real score-api checkout is the final word (docs/strategies.md, "Submitting to score-api").
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import snapshotLabsConfig from '@snapshot-labs/eslint-config'
import { ESLint } from 'eslint'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const folders = [
  ['strategies/human-id', 'src/strategies/strategies/human-id'],
  ['strategies/passport-v2', 'src/strategies/strategies/passport-v2'],
  ['strategies/human-verification', 'src/strategies/strategies/human-verification'],
] as const

/** The dependencies of score-api's package.json (commit 6ffd1ba) that a folder may import. */
const scoreApiDependencies = [
  '@ethersproject/abi',
  '@ethersproject/address',
  '@ethersproject/bignumber',
  '@ethersproject/bytes',
  '@ethersproject/constants',
  '@ethersproject/contracts',
  '@ethersproject/hash',
  '@ethersproject/keccak256',
  '@ethersproject/providers',
  '@ethersproject/solidity',
  '@ethersproject/strings',
  '@ethersproject/units',
  '@ethersproject/wallet',
  '@ethersproject/web',
  '@snapshot-labs/snapshot.js',
]

/** @snapshot-labs/prettier-config 0.1.0, which score-api's package.json names. */
const scoreApiPrettierOptions = {
  semi: true,
  singleQuote: true,
  tabWidth: 2,
  trailingComma: 'none',
  arrowParens: 'avoid',
}

let tree: string

function layOut(): string {
  // Inside the repository, so that score-api's packages (dev dependencies here) resolve as in score-api.
  mkdirSync(join(root, '.tmp'), { recursive: true })
  const dir = mkdtempSync(join(root, '.tmp', 'score-api-lint-'))
  cpSync(join(root, 'test/score-api-host/layout'), dir, { recursive: true })
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'snapshot-score',
      private: true,
      dependencies: Object.fromEntries(scoreApiDependencies.map((name) => [name, '*'])),
      prettier: scoreApiPrettierOptions,
    }),
  )
  for (const [from, to] of folders) cpSync(join(root, from), join(dir, to), { recursive: true })
  return dir
}

async function lint(dir: string, paths: string[]): Promise<string[]> {
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: snapshotLabsConfig,
  })
  const results = await eslint.lintFiles(paths)
  return results.flatMap((result) =>
    result.messages.map(
      (message) => `${result.filePath.slice(dir.length + 1)}:${message.line}:${message.column} ${message.ruleId}: ${message.message.split('\n')[0]}`,
    ),
  )
}

beforeAll(() => {
  tree = layOut()
})

afterAll(() => {
  rmSync(tree, { recursive: true, force: true })
})

describe("score-api's eslint (@snapshot-labs/eslint-config) on the folders", () => {
  test('every folder lints clean', async () => {
    const problems = await lint(
      tree,
      folders.map(([, to]) => to),
    )
    expect(problems).toEqual([])
  }, 60_000)

  test("a folder breaking score-api's rules is caught, rule by rule", async () => {
    const dir = join(tree, 'src/strategies/strategies/bad')
    cpSync(join(root, 'strategies/human-id'), dir, { recursive: true })
    writeFileSync(
      join(dir, 'index.ts'),
      [
        "import { getAddress } from '@ethersproject/address';",
        "import { customFetch } from '../../utils';",
        "import { defaultActionId } from './rules';",
        "import { toHex } from 'viem';",
        '',
        'export async function strategy(name: string) {',
        '  try {',
        "    await customFetch('https://example.org', {}, 1000);",
        '  } catch (e) {',
        "    throw new Error('failed ' + name + toHex(String(e)));",
        '  }',
        '  return getAddress(String(defaultActionId));',
        '}',
        '',
      ].join('\n'),
    )
    try {
      const problems = await lint(tree, ['src/strategies/strategies/bad/index.ts'])
      const rules = [...new Set(problems.map((problem) => problem.split(' ')[1]))].sort()
      expect(rules).toEqual(['import-x/no-extraneous-dependencies:', 'import-x/order:', 'no-restricted-syntax:', 'prefer-template:'])
      const ugly = 'export const x = (a) => [a, "b"];\n'
      writeFileSync(join(dir, 'index.ts'), ugly)
      expect(await lint(tree, ['src/strategies/strategies/bad/index.ts'])).toEqual([expect.stringContaining('prettier/prettier')])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
