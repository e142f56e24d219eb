/**
 * The public surface of the package, read by the TypeScript compiler: for each entry point of
 * package.json's `exports`, every name it exports, whether it is a value (function, class,
 * constant) or a type only, where it is declared and the first sentence of its TSDoc. Also every
 * `export *` in an entry point or in a module it re-exports from (the list must be explicit), and
 * every action (an exported function whose first parameter is the client) with the names of its
 * `Parameters`, `ReturnType` and `ErrorType`.
 *
 * test/api-surface.test.ts compares this with docs/api.md; `npm run api:docs` writes docs/api.md
 * from it (keeping the descriptions already written there).
 *
 *   npm run api:docs          rewrite docs/api.md
 *   npx tsx scripts/api-surface.ts    print the surface as JSON
 */
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'

/** The repository root. */
export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** One exported name. */
export type ApiExport = {
  name: string
  /** `value`: a function, class or constant (present at run time); `type`: a type only. */
  kind: 'value' | 'type'
  /** Function, class, constant, type... (for the docs' grouping). */
  declaration: 'function' | 'class' | 'constant' | 'type' | 'namespace'
  /** The declaring file, relative to the repository root (`src/clients/passport/get-score.ts`). */
  file: string
  /** The first sentence of its TSDoc, or '' when it has none. */
  summary: string
  /** Its place in the entry point's export list (0 first): the order of the entry file. */
  position: number
  /** For a function: the name of its first parameter, and how many it has. */
  parameters?: { first: string; count: number } | undefined
}

/** One entry point of the package. */
export type ApiEntry = {
  /** As a user imports it: `personhood`, `personhood/server`... */
  specifier: string
  /** The source file, relative to the repository root. */
  source: string
  exports: ApiExport[]
}

/** The entry points of package.json's `exports`, each with its source file under src/. */
export function listEntryPoints(root = repositoryRoot): { specifier: string; source: string }[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | { import?: string }> }
  return Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === 'object' && target.import?.startsWith('./dist/'))
    .map(([key, target]) => ({
      specifier: key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`,
      source: (target as { import: string }).import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'),
    }))
}

/** The first sentence of a text: up to a `.`, `!` or `?` that ends a sentence, outside `code` and brackets. */
export function firstSentence(text: string): string {
  let depth = 0
  let code = false
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!
    if (char === '`') code = !code
    else if (!code && '([{'.includes(char)) depth++
    else if (!code && ')]}'.includes(char)) depth = Math.max(0, depth - 1)
    else if (!code && depth === 0 && '.!?'.includes(char) && (index === text.length - 1 || (text[index + 1] === ' ' && !/[a-z0-9,]/.test(text[index + 2] ?? '')))) {
      return text.slice(0, index + 1)
    }
  }
  return text
}

function summaryOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  const parts = symbol.getDocumentationComment(checker)
  const text = parts
    // `{@link name}` comes as the parts link, linkName, link: the name is kept, as code.
    .map((part) => (part.kind === 'linkName' || part.kind === 'linkText' ? `\`${part.text.trim()}\`` : part.kind === 'link' ? '' : part.text))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
  return firstSentence(text).trim()
}

function describeDeclaration(symbol: ts.Symbol): Pick<ApiExport, 'kind' | 'declaration'> {
  const flags = symbol.flags
  if (flags & ts.SymbolFlags.Class) return { kind: 'value', declaration: 'class' }
  if (flags & ts.SymbolFlags.Function) return { kind: 'value', declaration: 'function' }
  if (flags & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule)) return { kind: 'value', declaration: 'namespace' }
  if (flags & ts.SymbolFlags.Variable) {
    const declaration = symbol.valueDeclaration
    const initializer = declaration && ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined
    const isFunction = initializer !== undefined && (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer))
    return { kind: 'value', declaration: isFunction ? 'function' : 'constant' }
  }
  if (flags & ts.SymbolFlags.Value) return { kind: 'value', declaration: 'constant' }
  return { kind: 'type', declaration: 'type' }
}

function parametersOf(symbol: ts.Symbol): ApiExport['parameters'] {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0]
  let fn: ts.SignatureDeclaration | undefined
  if (declaration && ts.isFunctionDeclaration(declaration)) fn = declaration
  else if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer && (ts.isArrowFunction(declaration.initializer) || ts.isFunctionExpression(declaration.initializer))) {
    fn = declaration.initializer
  }
  if (!fn) return undefined
  const first = fn.parameters[0]
  return { first: first && ts.isIdentifier(first.name) ? first.name.text : first ? '(pattern)' : '', count: fn.parameters.length }
}

/** The modules an entry point re-exports from, followed through `export ... from`, with each `export *` found on the way. */
function reExportGraph(program: ts.Program, entry: string, root: string): { files: string[]; stars: string[] } {
  const seen = new Set<string>()
  const stars: string[] = []
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const source = program.getSourceFile(file)
    if (!source) return
    for (const statement of source.statements) {
      if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue
      const target = ts.resolveModuleName(statement.moduleSpecifier.text, file, program.getCompilerOptions(), ts.sys).resolvedModule?.resolvedFileName
      if (!statement.exportClause || ts.isNamespaceExport(statement.exportClause)) {
        const line = source.getLineAndCharacterOfPosition(statement.getStart()).line + 1
        stars.push(`${relative(root, file)}:${line}: ${statement.getText()}`)
      }
      // Only index files are entry-like; a re-export from a plain module ends the walk there.
      if (target && !target.includes('node_modules') && /\/index\.ts$/.test(target)) visit(target)
    }
  }
  visit(entry)
  return { files: [...seen].map((file) => relative(root, file)), stars }
}

/** Every entry point's exports, sorted by name; and every `export *` in the entry points. */
export function readApiSurface(root = repositoryRoot): { entries: ApiEntry[]; exportStars: string[] } {
  const entryPoints = listEntryPoints(root)
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
  if (!config) throw new Error('Cannot read tsconfig.json')
  const program = ts.createProgram({ rootNames: entryPoints.map((entry) => join(root, entry.source)), options: { ...config.options, noEmit: true } })
  const checker = program.getTypeChecker()
  const exportStars: string[] = []
  const entries = entryPoints.map(({ specifier, source }) => {
    const file = program.getSourceFile(join(root, source))
    if (!file) throw new Error(`${source} (the entry point ${specifier}) does not exist`)
    exportStars.push(...reExportGraph(program, join(root, source), root).stars)
    const moduleSymbol = checker.getSymbolAtLocation(file)
    const exports = (moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []).map((exported, position): ApiExport => {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const declaration = symbol.declarations?.[0]
      const { kind, declaration: declared } = describeDeclaration(symbol)
      return {
        name: exported.name,
        kind,
        declaration: declared,
        file: declaration ? relative(root, declaration.getSourceFile().fileName) : source,
        summary: summaryOf(symbol, checker),
        position,
        ...(declared === 'function' ? { parameters: parametersOf(symbol) } : {}),
      }
    })
    return { specifier, source, exports: exports.sort((a, b) => a.name.localeCompare(b.name)) }
  })
  return { entries, exportStars }
}

/** `getScore` -> `GetScore`: the prefix of an action's types. */
export const typePrefix = (name: string) => name.charAt(0).toUpperCase() + name.slice(1)

/** The names of the first parameter that make an exported function an action: `action(client, parameters)`. */
export const clientParameterNames = ['client', 'provider', 'chainClient']

/**
 * The actions of an entry point (an exported function of two or more parameters whose first is
 * the client) and which of `XParameters`, `XReturnType`, `XErrorType` it does not export.
 */
export function checkActions(entry: ApiEntry): { action: string; missing: string[] }[] {
  const names = new Set(entry.exports.map((exported) => exported.name))
  return entry.exports
    .filter((exported) => exported.declaration === 'function' && exported.parameters && exported.parameters.count >= 2 && clientParameterNames.includes(exported.parameters.first))
    .map((exported) => ({
      action: exported.name,
      missing: ['Parameters', 'ReturnType', 'ErrorType'].map((suffix) => `${typePrefix(exported.name)}${suffix}`).filter((name) => !names.has(name)),
    }))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(readApiSurface(), null, 2))
}
