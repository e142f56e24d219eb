/**
 * Writes each strategy folder's `schema.json` from the zod options of the definition its `index.ts`
 * exports, so the schema Snapshot's UI validates against and the options the strategy reads are one
 * rule. The conformance suite fails when a committed schema.json differs.
 *
 *   npm run strategies:schemas
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { getStrategyJsonSchema, validationJsonSchema, type StrategyDefinition } from '../src/index.js'

const root = join(import.meta.dirname, '..')
const folders = [join(root, 'strategies'), join(root, 'test', 'strategies', 'fixtures')]
  .filter((parent) => existsSync(parent))
  .flatMap((parent) => readdirSync(parent, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join(parent, entry.name)))

for (const folder of folders) {
  const module = (await import(pathToFileURL(join(folder, 'index.ts')).href)) as { definition?: StrategyDefinition }
  if (!module.definition) {
    console.warn(`${folder}: index.ts exports no definition; schema.json left as it is`)
    continue
  }
  writeFileSync(join(folder, 'schema.json'), `${JSON.stringify(getStrategyJsonSchema(module.definition), null, 2)}\n`)
  console.log(`${folder}/schema.json written`)
}

// Validations (validations/<name>/) take the options of the strategy of the same name: the same
// schema, under score-api's `#/definitions/Validation`.
const validationsRoot = join(root, 'validations')
if (existsSync(validationsRoot)) {
  const { findStrategyDefinition } = await import('../src/index.js')
  for (const entry of readdirSync(validationsRoot, { withFileTypes: true }).filter((dirent) => dirent.isDirectory())) {
    const definition = findStrategyDefinition(entry.name)
    if (!definition) {
      console.warn(`validations/${entry.name}: no strategy of that name; schema.json left as it is`)
      continue
    }
    writeFileSync(join(validationsRoot, entry.name, 'schema.json'), `${JSON.stringify(validationJsonSchema(definition), null, 2)}\n`)
    console.log(`validations/${entry.name}/schema.json written`)
  }
}
