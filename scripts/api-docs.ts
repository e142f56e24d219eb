/**
 * Writes docs/api.md: the public surface of every entry point, one line per name (an action's or a
 * class's own types on its line), grouped by topic, each with what it is: the first sentence of its
 * TSDoc (a name without TSDoc keeps the description docs/api.md already gives it, or fails).
 * test/api-surface.test.ts fails when docs/api.md and the entry points name different things, so
 * after adding or removing an export: run this, read the diff, commit it.
 *
 *   npm run api:docs
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { readApiSurface, repositoryRoot, typePrefix, type ApiEntry, type ApiExport } from './api-surface.js'

/** Where the list lives. */
export const apiDocument = 'docs/api.md'

/** The separator between a line's names and its description. */
const separator = ' — '

/** A group of docs/api.md: its heading, and the source folders (under src/) whose names it holds. */
const groups: { heading: string; folders: string[] }[] = [
  { heading: 'Clients and actions', folders: ['clients'] },
  { heading: 'Chain readers and constants', folders: ['chain'] },
  { heading: 'Rules and verdicts', folders: ['verify'] },
  { heading: 'Strategies', folders: ['strategy', 'strategies'] },
  { heading: 'The audit', folders: ['audit'] },
  { heading: 'Errors', folders: ['errors'] },
  { heading: 'Schemas and the types they give', folders: ['schemas'] },
  { heading: 'Transport options and rate limits', folders: ['http'] },
  { heading: 'The reference server', folders: ['server'] },
  { heading: 'The strategy server', folders: ['strategy-server'] },
  { heading: 'The demo world', folders: ['world'] },
  { heading: 'The local chain', folders: ['devchain'] },
  { heading: 'The command line', folders: ['cli'] },
  { heading: 'Utilities', folders: ['utils', 'version.ts'] },
]

/** Sub-headings: the services of the clients and schemas, by the module or folder that holds them. */
const topicHeadings: Record<string, string> = {
  'clients/passport': 'Passport: stamp and model scores (interfaces A and B)',
  passport: 'Passport: stamp scores (interface A)',
  model: 'Passport: model scores (interface B)',
  registry: 'The legacy registry (interface C)',
  'stamp-cache': 'The stamp cache (interface D)',
  'human-id': 'Human ID (interfaces E1-E7)',
  'attestation-index': 'The attestation index (E8)',
  attestation: 'The attestation index (E8)',
  'snapshot-hub': "Snapshot's hub",
}

/** The groups whose names are split by service under sub-headings. */
const groupsByService = new Set(['Clients and actions', 'Schemas and the types they give'])

/** What each entry point is, under its heading. */
const entryIntroductions: Record<string, string> = {
  personhood:
    'The library: clients of the services, on-chain readers, the rules, strategies, errors and schemas. Loads no server, world, CLI or Node-only module.',
  'personhood/server': 'The reference server of the services (a hono app), its state, persistence and stamp proofs.',
  'personhood/world': 'The deterministic demo world the reference server and the local chain load.',
  'personhood/cli': 'The command line as a library.',
  'personhood/devchain': 'A local chain seeded from a world, for trying the on-chain verifier offline.',
  'personhood/strategies': "This package's strategies as library definitions, with score-api's function shape.",
  'personhood/strategy-server': "score-api's `api-v2` protocol over this package's strategies.",
  'personhood/audit': "A governance audit as a library: a proposal's votes judged by a strategy, as data, and the report writers.",
}

/** The folder of src/ a name is declared in (`clients`, `version.ts`...). */
const folderOf = (exported: ApiExport) => exported.file.replace(/^src\//, '').split('/')[0]!

/** The sub-topic of a name inside its folder: the module or sub-folder it is declared in. */
const topicOf = (exported: ApiExport) => {
  const parts = exported.file.replace(/^src\//, '').split('/')
  return parts.length > 2 ? parts[1]! : parts[parts.length - 1]!.replace(/\.ts$/, '')
}

/** The suffixes of the types that sit on their value's line. */
const ownTypeSuffixes = ['Parameters', 'ReturnType', 'ErrorType', 'Type']

/** Lines of one entry point: each value with the types named after it, then the other types. */
function linesOf(exports: ApiExport[]): ApiExport[][] {
  const values = exports.filter((exported) => exported.kind === 'value')
  const placed = new Set<string>()
  const lines: ApiExport[][] = []
  for (const value of values) {
    const prefix = typePrefix(value.name)
    const own = exports.filter((exported) => exported.kind === 'type' && ownTypeSuffixes.some((suffix) => exported.name === `${prefix}${suffix}`))
    own.sort((a, b) => ownTypeSuffixes.indexOf(a.name.slice(prefix.length)) - ownTypeSuffixes.indexOf(b.name.slice(prefix.length)))
    for (const type of own) placed.add(type.name)
    lines.push([value, ...own])
  }
  for (const type of exports.filter((exported) => exported.kind === 'type' && !placed.has(exported.name))) lines.push([type])
  return lines
}

/** The names and descriptions docs/api.md holds, by entry point: what the test compares. */
export function parseApiDocument(text: string): Map<string, { names: string[]; descriptions: Map<string, string> }> {
  const entries = new Map<string, { names: string[]; descriptions: Map<string, string> }>()
  let current: { names: string[]; descriptions: Map<string, string> } | undefined
  for (const line of text.split('\n')) {
    const heading = /^## `([^`]+)`\s*$/.exec(line)
    if (heading) {
      current = { names: [], descriptions: new Map() }
      entries.set(heading[1]!, current)
      continue
    }
    if (!current || !line.startsWith('- `')) continue
    const cut = line.indexOf(separator)
    const namesPart = cut === -1 ? line : line.slice(0, cut)
    const names = [...namesPart.matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((match) => match[1]!)
    current.names.push(...names)
    if (cut !== -1 && names[0]) current.descriptions.set(names[0], line.slice(cut + separator.length).trim())
  }
  return entries
}

/** docs/api.md for these entry points, keeping the descriptions of `previous`. */
export function renderApiDocument(entries: ApiEntry[], previous: string): string {
  const kept = parseApiDocument(previous)
  const missing: string[] = []
  const out: string[] = [
    '# The public API',
    '',
    'Every name each entry point exports, one line each (an action with its `XParameters`,',
    '`XReturnType` and `XErrorType`; an error class with its `XErrorType`), grouped by topic. Anything',
    'not listed here is internal and may change in any release.',
    '',
    'Actions take the client first: `action(client, parameters)`, defaults in the signature; each',
    "client's factory also binds them (`createPassportClient(config).getScore(parameters)`). Each",
    "`XErrorType` is the union of the errors' `...ErrorType` (`X & { name: 'X' }`), so `error.name`",
    'narrows it; the errors themselves are described in [errors.md](errors.md).',
    '',
    '`test/api-surface.test.ts` compares this list with what the entry points export (values at run',
    'time, types through the TypeScript compiler): adding or removing an export without changing this',
    'file fails it. `npm run api:docs` rewrites the list from the entry points, each description the',
    "first sentence of the name's TSDoc.",
    '',
  ]
  for (const entry of entries) {
    const previousEntry = kept.get(entry.specifier)
    if (out[out.length - 1] !== '') out.push('')
    out.push(`## \`${entry.specifier}\``, '', `${entryIntroductions[entry.specifier] ?? ''} Source: \`${entry.source}\`.`.trim(), '')
    const known = new Set(groups.flatMap((group) => group.folders))
    const unknownFolders = [...new Set(entry.exports.map(folderOf).filter((folder) => !known.has(folder)))]
    for (const group of [...groups, ...unknownFolders.map((folder) => ({ heading: folder, folders: [folder] }))]) {
      const members = entry.exports.filter((exported) => group.folders.includes(folderOf(exported)))
      if (members.length === 0) continue
      if (out[out.length - 1] !== '') out.push('')
      out.push(`### ${group.heading}`, '')
      // Lines across the group (an action's types may be declared beside another module), each
      // under the topic of its first name; topics in the order the entry file names them.
      const groupLines = linesOf(members)
      const topics = [...new Set(groupLines.map((line) => line[0]!).sort((a, b) => a.position - b.position).map(topicOf))]
      for (const topic of topics) {
        const lines = groupLines.filter((line) => topicOf(line[0]!) === topic)
        const byService = groupsByService.has(group.heading) && topics.length > 1
        if (byService) out.push(`#### ${topicHeadings[`${group.folders[0]}/${topic}`] ?? topicHeadings[topic] ?? topic}`, '')
        for (const line of lines) {
          const first = line[0]!
          const description = first.summary || previousEntry?.descriptions.get(first.name)
          if (!description) missing.push(`${entry.specifier}: ${first.name} (${first.file})`)
          out.push(`- ${line.map((exported) => `\`${exported.name}\``).join(', ')}${separator}${description}`)
        }
        if (byService) out.push('')
      }
    }
  }
  if (missing.length) {
    throw new Error(`These exports have no TSDoc and no description in ${apiDocument}; write a one-line TSDoc summary for each:\n${missing.join('\n')}`)
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const path = join(repositoryRoot, apiDocument)
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : ''
  const { entries } = readApiSurface()
  writeFileSync(path, renderApiDocument(entries, previous))
  console.log(`${apiDocument}: ${entries.map((entry) => `${entry.specifier} ${entry.exports.length}`).join(', ')}`)
}
