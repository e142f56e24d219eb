/**
 * Compiles `strategies/human-id/reader.sol` (the human-id strategy's deployless reader) with the
 * repository's solc and settings (scripts/contracts.ts), writes its creation code into the
 * `readerCode` constant of `src/rules/reader.ts` (the reader's protocol, which the library
 * uses), and copies that module into the folders as `npm run strategies:rules` does: the folder
 * carries the bytes, score-api needs no compiler. `test/strategies/human-id-reader.test.ts` fails
 * while the constant differs.
 *
 * Run `npm run strategies:reader` after changing reader.sol.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Hex } from 'viem'
import { repositoryRoot, solcSettings } from './contracts.js'
import { ruleSource, writeRulesCopies } from './strategy-rules.js'

export const readerSource = join(repositoryRoot, 'strategies/human-id/reader.sol')
export const readerModule = join(repositoryRoot, ruleSource('reader'))

/** The lines of the module that hold the creation code. */
export const readerCodePattern = /^export const readerCode =\n? *'0x[0-9a-f]*';$/m

const require = createRequire(import.meta.url)

/**
 * The reader's creation code, compiled from its source as file `reader.sol` (the name is part of
 * the metadata hash at the end of the bytes).
 *
 * @throws {Error} with solc's messages when the source does not compile.
 */
export async function compileReader(): Promise<Hex> {
  const solc = require('solc') as { compile(input: string): string }
  const content = await readFile(readerSource, 'utf8')
  const input = { language: 'Solidity', sources: { 'reader.sol': { content } }, settings: solcSettings }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[]
    contracts?: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
  if (errors.length > 0) throw new Error(`solc failed on reader.sol:\n${errors.map((error) => error.formattedMessage).join('\n')}`)
  const object = output.contracts?.['reader.sol']?.['HumanIdReader']?.evm.bytecode.object
  if (!object) throw new Error('solc output has no contract HumanIdReader in reader.sol')
  return `0x${object}`
}

/** The creation code the module carries now. */
export async function readerCodeInModule(): Promise<Hex | undefined> {
  const text = await readFile(readerModule, 'utf8')
  return text.match(readerCodePattern)?.[0].match(/0x[0-9a-f]*/)?.[0] as Hex | undefined
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const code = await compileReader()
  const text = await readFile(readerModule, 'utf8')
  if (!readerCodePattern.test(text)) throw new Error(`${readerModule} has no line \`export const readerCode =\n  '0x...';\``)
  await writeFile(readerModule, text.replace(readerCodePattern, `export const readerCode =\n  '${code}';`))
  console.log(`wrote readerCode (${(code.length - 2) / 2} bytes) into ${readerModule}`)
  for (const path of writeRulesCopies(repositoryRoot)) console.log(`${path} written`)
}
