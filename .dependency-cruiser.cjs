/**
 * The layering of src/, checked by dependency-cruiser in `npm test` (`npm run lint:layers`).
 *
 * Each folder of src/ may import itself and the folders listed for it below, nothing else; type-only
 * imports count as imports. The order, lowest first (STYLE.md: data flows one way):
 *
 *   rules (the ground floor: dependency-free modules, one per topic, which import only each other;
 *          copied verbatim into the score-api folders, and every layer above may import them)
 *   -> errors -> utils -> schemas -> http -> clients | chain -> verify -> strategy -> world -> devchain
 *   -> audit | server | strategy-server -> cli
 *   entry points on top: src/index.ts (personhood) and src/strategies (personhood/strategies); each
 *   folder's index.ts is the entry point of that folder (personhood/server, /world, /cli, /devchain,
 *   /strategy-server) and follows its folder's rule.
 *
 * `world` (the demo world) sits under the server and the local chain, which are seeded from it; the
 * local chain (`devchain`) sits under the server, whose `startServe` starts it beside the server
 * (`serve --chain`, loaded only then). Two folders on one line (clients | chain, audit | server |
 * ...) do not import each other.
 *
 * Inside src/audit/ the audit's data walks one way: the caller (the CLI, a DAO tool) -> `audit.ts`
 * (the pipeline) -> the strategy (`judge.ts`) -> the sources (`sources.ts`) -> the report
 * (`report/`), which takes the result as data: nothing imports `audit.ts` but the entry point, the
 * pipeline never imports the report, and the report imports only the audit's data shapes and their
 * readers (`lines.ts`, `title.ts`).
 *
 * And no import cycle anywhere in src/ (type-only cycles included). Exceptions are named in
 * `exceptions` below, each with its reason; there are none today.
 */

/** What each folder of src/ may import, besides itself and src/version.ts. */
const allowed = {
  rules: [],
  errors: [],
  utils: ['errors'],
  schemas: ['errors', 'utils'],
  http: ['errors', 'utils', 'schemas'],
  clients: ['errors', 'utils', 'schemas', 'http'],
  chain: ['errors', 'utils', 'schemas', 'http'],
  verify: ['errors', 'utils', 'schemas', 'http', 'clients', 'chain'],
  strategy: ['errors', 'utils', 'schemas', 'http', 'clients', 'chain', 'verify'],
  world: ['errors', 'utils', 'schemas', 'http', 'clients', 'chain', 'verify', 'strategy'],
  audit: ['errors', 'utils', 'schemas', 'http', 'clients', 'chain', 'verify', 'strategy'],
  server: ['errors', 'utils', 'schemas', 'http', 'clients', 'chain', 'verify', 'strategy', 'world', 'devchain'],
  'strategy-server': ['errors', 'utils', 'schemas', 'http', 'clients', 'chain', 'verify', 'strategy'],
  devchain: ['errors', 'utils', 'schemas', 'http', 'clients', 'chain', 'verify', 'strategy', 'world'],
  cli: ['errors', 'utils', 'schemas', 'http', 'clients', 'chain', 'verify', 'strategy', 'world', 'audit', 'server', 'strategy-server', 'devchain'],
  strategies: ['strategy'],
}
/** What src/index.ts (the `personhood` entry point) may import: the library, no server, world or CLI. */
const rootEntryAllowed = ['rules', 'errors', 'utils', 'schemas', 'http', 'clients', 'chain', 'verify', 'strategy']

/**
 * Named exceptions: `{ name, from, to, reason }` with `from` and `to` path patterns. Each one is
 * allowed by the layer rules and listed here so a reviewer sees it. None today.
 */
const exceptions = []

const anyOf = (folders) => `^src/(${folders.join('|')})/`
const exceptionPaths = exceptions.map((exception) => exception.from)
// The ground floor is below every layer: each may import it (it is listed here once, not in each row).
for (const [folder, folders] of Object.entries(allowed)) if (folder !== 'rules') folders.unshift('rules')
const everywhere = ['^src/version\\.ts$']

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: modules of a cycle cannot be read, tested or moved one at a time.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'rules-import-only-rules',
      severity: 'error',
      comment: 'src/rules/ is copied verbatim into the score-api folders: a rule module imports only its siblings (no package, no Node module, not even version.ts).',
      from: { path: '^src/rules/' },
      to: { pathNot: '^src/rules/' },
    },
    ...Object.entries(allowed).map(([folder, folders]) => ({
      name: `layer-${folder}`,
      severity: 'error',
      comment: `src/${folder}/ may import only ${folders.length ? folders.join(', ') : 'nothing below it'} (and itself and version.ts): see .dependency-cruiser.cjs.`,
      from: { path: `^src/${folder}/`, pathNot: exceptionPaths.length ? exceptionPaths : undefined },
      to: { path: '^src/', pathNot: [`^src/${folder}/`, ...(folders.length ? [anyOf(folders)] : []), ...everywhere] },
    })),
    {
      name: 'layer-root-entry',
      severity: 'error',
      comment: `src/index.ts (personhood) may import only ${rootEntryAllowed.join(', ')}: no server, demo world or CLI in the library.`,
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/', pathNot: [anyOf(rootEntryAllowed), ...everywhere] },
    },
    {
      name: 'audit-pipeline-on-top',
      severity: 'error',
      comment: "src/audit/audit.ts runs the audit: only the entry point (src/audit/index.ts) and the layers above import it, never the pieces it calls.",
      from: { path: '^src/audit/', pathNot: '^src/audit/(index|audit)\\.ts$' },
      to: { path: '^src/audit/(index|audit)\\.ts$' },
    },
    {
      name: 'audit-report-last',
      severity: 'error',
      comment: 'The report (src/audit/report/) renders an audit that is done: the pipeline never imports it.',
      from: { path: '^src/audit/', pathNot: ['^src/audit/report/', '^src/audit/index\\.ts$'] },
      to: { path: '^src/audit/report/' },
    },
    {
      name: 'audit-report-takes-data',
      severity: 'error',
      comment: "The report renders the audit's data: it imports only the data shapes (src/audit/types.ts, votes.ts) and their readers (lines.ts, title.ts), the rules, errors and utils, never a source, a strategy or the pipeline.",
      from: { path: '^src/audit/report/' },
      to: { path: '^src/', pathNot: ['^src/audit/report/', '^src/audit/(types|votes|lines|title)\\.ts$', '^src/(rules|errors|utils)/', ...everywhere] },
    },
    {
      name: 'layer-version',
      severity: 'error',
      comment: 'src/version.ts is at the bottom: it imports nothing from src/.',
      from: { path: '^src/version\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'not-in-a-layer',
      severity: 'error',
      comment: 'A folder of src/ that has no place in the layers: add it to `allowed` in .dependency-cruiser.cjs.',
      from: { path: '^src/', pathNot: [`^src/(${Object.keys(allowed).join('|')})/`, '^src/index\\.ts$', '^src/version\\.ts$'] },
      to: { path: '^src/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests beside their code are not part of the layers.
    exclude: { path: '\\.test\\.ts$' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js'] },
  },
}
