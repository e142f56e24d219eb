/**
 * The score-api code of this repository (the folders under `strategies/` and `validations/`, and
 * the test host's own score-api layout and fixtures) is formatted as score-api's lint requires:
 * prettier with `@snapshot-labs/prettier-config` (score-api's package.json names it; it wins over
 * its `.prettierrc`): semicolons, single quotes, no trailing commas, arrow parentheses avoided.
 * This package's eslint leaves these files alone.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import * as prettier from 'prettier'
import { describe, expect, test } from 'vitest'

const root = join(import.meta.dirname, '..', '..')

/** @snapshot-labs/prettier-config 0.1.0, as score-api's package.json resolves it. */
export const scoreApiPrettierOptions: prettier.Options = { semi: true, singleQuote: true, tabWidth: 2, trailingComma: 'none', arrowParens: 'avoid' }

function files(dir: string): string[] {
  let found: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) found = found.concat(files(path))
    else if (/\.(ts|json)$/.test(name)) found.push(path)
  }
  return found
}

const scoreApiFiles = ['strategies', 'validations', 'test/score-api-host/layout', 'test/score-api-host/fixtures'].flatMap((dir) => {
  try {
    return files(join(root, dir))
  } catch {
    return []
  }
})

describe("score-api's format", () => {
  test('there are files to check', () => {
    expect(scoreApiFiles.filter((file) => file.endsWith('.ts')).length).toBeGreaterThan(5)
  })

  test.each(scoreApiFiles.filter((file) => file.endsWith('.ts')).map((file) => relative(root, file)))('%s', async (file) => {
    const source = readFileSync(join(root, file), 'utf8')
    const formatted = await prettier.format(source, { ...scoreApiPrettierOptions, filepath: file })
    if (formatted !== source) {
      const line = source.split('\n').findIndex((text, index) => text !== formatted.split('\n')[index])
      expect.fail(`${file} is not in score-api's prettier format (first difference at line ${line + 1}); run npx prettier --write with ${JSON.stringify(scoreApiPrettierOptions)}`)
    }
  })

  test('a file in another format is caught', async () => {
    const source = "const f = (x) => ({ a: 'b', });\n"
    expect(await prettier.format(source, { ...scoreApiPrettierOptions, filepath: 'x.ts' })).not.toBe(source)
  })
})
