/**
 * Writes each strategy folder's `schema.json` from the zod options of the library definition of the
 * same name (`findStrategyDefinition`), so the schema Snapshot's UI validates against and the
 * options the library reads are one rule. The folders under `strategies/` are score-api code and
 * import nothing of this package, so the definition is found by name; the options a score-api folder
 * does not offer (`source`: the Human ID API answers from the latest state, not the snapshot's) are
 * left out of its schema. A test fixture folder still names its definition in its `index.ts`.
 *
 *   npm run strategies:schemas
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as prettier from 'prettier'
import { findStrategyDefinition, getStrategyJsonSchema, type StrategyDefinition } from '../src/index.js'

const root = join(import.meta.dirname, '..')
const subfolders = (parent: string) =>
  existsSync(parent) ? readdirSync(parent, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join(parent, entry.name)) : []

/** Options of the library a score-api folder does not offer. */
const libraryOnlyOptions = ['source', 'passportSource', 'scorerId', 'allowLiveScore']

/** Credentials of the library a score-api folder does not read: clean hands needs Sign Protocol's off-chain index. */
const libraryOnlyCredentials = ['clean-hands']

type JsonSchema = { definitions: { Strategy: { properties: Record<string, unknown>; required?: string[] } } }
type ArrayProperty = { description?: string; maxItems?: number; items?: { enum?: string[] } }

/** The schema a score-api folder of this library strategy offers: the library's, less what only the library reads. */
export function folderSchema(definition: StrategyDefinition): JsonSchema {
  const schema = getStrategyJsonSchema(definition) as JsonSchema
  const { properties } = schema.definitions.Strategy
  for (const option of libraryOnlyOptions) delete properties[option]
  const credentials = properties.credentials as ArrayProperty | undefined
  if (credentials?.items?.enum) {
    const offered = credentials.items.enum.filter((credential) => !libraryOnlyCredentials.includes(credential))
    credentials.items.enum = offered
    credentials.maxItems = offered.length
    credentials.description = `Which Human ID credentials count: ${offered.join(', ')} (clean-hands: through api-v2 and the personhood strategy server).`
  }
  return schema
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await writeSchemas()

async function writeSchemas() {
  for (const folder of subfolders(join(root, 'strategies'))) {
    const name = basename(folder)
    const definition = findStrategyDefinition(name)
    if (!definition) {
      console.warn(`strategies/${name}: no library strategy of that name; schema.json left as it is`)
      continue
    }
    const schema = folderSchema(definition)
    // In score-api's prettier format, as the rest of the folder.
    writeFileSync(join(folder, 'schema.json'), await prettier.format(JSON.stringify(schema), { parser: 'json', singleQuote: true, trailingComma: 'none' }))
    console.log(`strategies/${name}/schema.json written`)
  }

  for (const folder of subfolders(join(root, 'test', 'strategies', 'fixtures')).filter((folder) => existsSync(join(folder, 'index.ts')))) {
    const module = (await import(pathToFileURL(join(folder, 'index.ts')).href)) as { definition?: StrategyDefinition }
    if (!module.definition) {
      console.warn(`${folder}: index.ts exports no definition; schema.json left as it is`)
      continue
    }
    writeFileSync(join(folder, 'schema.json'), `${JSON.stringify(getStrategyJsonSchema(module.definition), null, 2)}\n`)
    console.log(`${folder}/schema.json written`)
  }
}
