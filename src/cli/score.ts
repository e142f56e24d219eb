/**
 * `personhood score`: a strategy of this package run as score-api runs it (the same function, the
 * same options), on any list of addresses, with a progress line for long runs. Prints a table, or
 * writes JSON (`{ address: score }`, what score-api returns) or CSV.
 */
import { writeFileSync } from 'node:fs'
import type { Address } from 'viem'
import { checkBlockTime } from '../chain/checks.js'
import { InvalidParameterError } from '../errors/input.js'
import { createStrategyCache } from '../strategy/cache.js'
import { runStrategy, type StrategyRun } from '../strategy/define.js'
import { findStrategyDefinition, strategyDefinitions } from '../strategy/registry.js'
import { parseSnapshot, resolveSnapshot } from '../strategy/snapshot.js'
import { stringifyJson } from '../utils/json.js'
import { defaultNetwork, parseNetwork } from '../utils/parse.js'
import { checkCommandChains, commandProvider, commandStrategyContext, readAddressList, readOptionsArgument, type CommandEnvironment, type SourceFlags } from './context.js'
import { createProgress } from './progress.js'

/** Options of {@link runScoreCommand} (the flags, read). */
export type ScoreCommandOptions = SourceFlags & {
  strategy: string
  /** The space's network. Default 10 (`defaultNetwork`). */
  network?: string | undefined
  snapshot: string
  /** JSON text or a JSON file. Default `{}`. */
  options?: string | undefined
  /** A comma-separated list or a file. */
  addresses: string
  format?: 'table' | 'json' | 'csv' | undefined
  /** Write there instead of printing. */
  output?: string | undefined
  /** Addresses per strategy call. Default 500 (score-api's batch). */
  batch?: number | undefined
}

/** What {@link runScoreCommand} computed. */
export type ScoreCommandResult = {
  scores: Record<Address, number>
  requests: Record<string, number>
  snapshot: { blockNumber: bigint; timestamp: number } | null
}

/**
 * Runs a strategy over addresses as `personhood score` does.
 *
 * @throws {InvalidParameterError} for an unknown strategy or a bad flag; the strategy's own typed
 * errors (options, sources, block) otherwise.
 */
export async function runScoreCommand(
  options: ScoreCommandOptions,
  io: { env: CommandEnvironment; log: (line: string) => void; stderr?: { isTTY?: boolean; write(text: string): unknown } | undefined; fetch?: typeof fetch | undefined; now?: (() => number) | undefined },
): Promise<ScoreCommandResult> {
  const definition = findStrategyDefinition(options.strategy)
  if (!definition) throw new InvalidParameterError({ parameter: '--strategy', reason: `Unknown strategy "${options.strategy.slice(0, 60)}": one of ${Object.keys(strategyDefinitions).join(', ')}.` })
  const network = parseNetwork(options.network ?? defaultNetwork, '--network')
  const snapshot = parseSnapshot(options.snapshot)
  const strategyOptions = options.options === undefined ? {} : readOptionsArgument(options.options)
  const addresses = readAddressList(options.addresses)
  const batch = options.batch ?? 500
  const { provider, url: rpcUrl } = commandProvider({ flags: options, env: io.env, network, fetch: io.fetch })
  // The RPCs serve the chains they stand for, and the block is not dated ahead of the clock.
  await checkCommandChains({ rpcUrl, network, hubChain: commandStrategyContext({ flags: options, env: io.env }).humanId?.hubChain, fetch: io.fetch })
  const pinned = await resolveSnapshot(provider, { snapshot, network })
  checkBlockTime({ blockNumber: pinned.blockNumber, timestamp: pinned.timestamp, network, now: (io.now ?? Date.now)() })
  const progress = createProgress({ label: `Scoring with ${definition.name}`, total: addresses.length, stream: io.stderr })
  const context = { ...commandStrategyContext({ flags: options, env: io.env, fetch: io.fetch, onWait: (waitMs, budget) => progress.waiting(waitMs, budget) }), cache: createStrategyCache() }
  const scores: Record<Address, number> = {}
  const requests: Record<string, number> = {}
  let resolved: ScoreCommandResult['snapshot'] = null
  try {
    for (let start = 0; start < addresses.length; start += batch) {
      const chunk = addresses.slice(start, start + batch)
      // 'latest' is pinned to the first call's block, so every batch scores at the same block.
      const run: StrategyRun = await runStrategy(definition, { network, provider, addresses: chunk, options: strategyOptions, snapshot: pinned.blockNumber, context })
      Object.assign(scores, run.scores)
      for (const [source, count] of Object.entries(run.requests)) requests[source] = (requests[source] ?? 0) + count
      if (run.snapshot) resolved = { blockNumber: run.snapshot.blockNumber, timestamp: run.snapshot.timestamp }
      progress.tick(chunk.length)
    }
  } finally {
    progress.done()
  }
  const text = formatScores(scores, options.format ?? 'table', { strategy: definition.name, network, snapshot: resolved, requests })
  if (options.output) writeFileSync(options.output, text)
  else for (const line of text.replace(/\n$/, '').split('\n')) io.log(line)
  return { scores, requests, snapshot: resolved }
}

/** Scores as a table, JSON (score-api's `{ address: score }`) or CSV. */
export function formatScores(
  scores: Record<Address, number>,
  format: 'table' | 'json' | 'csv',
  about: { strategy: string; network: string; snapshot: ScoreCommandResult['snapshot']; requests: Record<string, number> },
): string {
  const entries = Object.entries(scores) as [Address, number][]
  if (format === 'json') return `${stringifyJson(scores, { indent: 2 })}\n`
  if (format === 'csv') return `address,score\n${entries.map(([address, score]) => `${address},${score}`).join('\n')}\n`
  const width = Math.max(...entries.map(([, score]) => String(score).length), 5)
  const positive = entries.filter(([, score]) => score > 0).length
  const lines = [
    `${about.strategy} on network ${about.network} at block ${about.snapshot?.blockNumber ?? '?'}${about.snapshot ? ` (${new Date(about.snapshot.timestamp * 1000).toISOString()})` : ''}`,
    '',
    `${'address'.padEnd(42)}  ${'score'.padStart(width)}`,
    ...entries.map(([address, score]) => `${address}  ${String(score).padStart(width)}`),
    '',
    `${positive} of ${entries.length} addresses above 0. Requests: ${Object.entries(about.requests).map(([source, count]) => `${source} ${count}`).join(', ') || 'none'}.`,
  ]
  return `${lines.join('\n')}\n`
}
