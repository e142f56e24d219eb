/**
 * `personhood verify <address>`: every source's verdict on one address at a snapshot, with the
 * reason for each, readable by a person (`--json` for programs). The sources are read by the same
 * strategies a space votes with, so what this prints is what they count.
 */
import type { Address } from 'viem'
import { checkBlockTime } from '../chain/checks.js'
import { explainStrategyDetail, toAuditVerdict } from '../audit/judge.js'
import type { AuditSourceVerdict } from '../audit/types.js'
import { BaseError } from '../errors/base.js'
import { createStrategyCache } from '../strategy/cache.js'
import { runStrategy, type StrategyDefinition, type StrategyRun } from '../strategy/define.js'
import { findStrategyDefinition } from '../strategy/registry.js'
import { parseSnapshot, resolveSnapshot, type ResolvedSnapshot } from '../strategy/snapshot.js'
import { defaultNetwork, parseAddress, parseNetwork } from '../utils/parse.js'
import { checkCommandChains, commandProvider, commandStrategyContext, type CommandEnvironment, type SourceFlags } from './context.js'
import type { Colours } from '../utils/colour.js'

/** Options of {@link runVerifyCommand}. */
export type VerifyCommandOptions = SourceFlags & {
  address: string
  /** A block of `network`, or 'latest'. Default 'latest'. */
  snapshot?: string | undefined
  /** The space's network. Default 10 (`defaultNetwork`: Optimism, where Human ID lives). */
  network?: string | undefined
  /** Human ID action id. Default the package's. */
  actionId?: string | undefined
}

/** One source's answer on the address: its verdicts, or why it could not be asked. */
export type VerifySourceReport = {
  /** The source in words. */
  source: string
  /** The strategy and options that read it. */
  strategy: string
  options: Record<string, unknown>
  verdicts: AuditSourceVerdict[]
  /** Set when the source could not answer (not configured, or failed): it says nothing then. */
  error?: { code: string; message: string } | undefined
}

/** What {@link runVerifyCommand} found. */
export type VerifyReport = {
  address: Address
  network: string
  snapshot: { blockNumber: string; timestamp: number } | null
  sources: VerifySourceReport[]
  /** The fallback policy over every source that answered (human-verification's rule). */
  decision: { eligible: boolean; method: string | null } | null
  /** The sources that could not answer: when any did, the command exits 4 (source), whatever the decision. */
  unanswered: string[]
}

const humanCredentials = ['gov-id', 'phone', 'biometrics', 'clean-hands'] as const

/**
 * Reads every source on one address. A source that is not configured or fails is reported with
 * its error, never as a "no".
 *
 * @throws {InvalidAddressError} or {@link InvalidParameterError} for bad input (no request sent).
 */
export async function runVerifyCommand(options: VerifyCommandOptions, io: { env: CommandEnvironment; fetch?: typeof fetch | undefined; now?: (() => number) | undefined }): Promise<VerifyReport> {
  const address = parseAddress(options.address)
  const network = options.network ?? defaultNetwork
  parseNetwork(network, '--network')
  const snapshot = parseSnapshot(options.snapshot ?? 'latest')
  const { provider, url: rpcUrl } = commandProvider({ flags: options, env: io.env, network, fetch: io.fetch })
  const base = commandStrategyContext({ flags: options, env: io.env, fetch: io.fetch })
  // Each verdict is shown with until when it holds: Human ID on chain reads the expiries too.
  const context = { ...base, humanId: { ...base.humanId, expiries: true }, cache: createStrategyCache() }
  // The RPCs serve the chains they stand for, and the block is not dated ahead of the clock.
  await checkCommandChains({ rpcUrl, network, hubChain: context.humanId?.hubChain, fetch: io.fetch })
  const pinned = await resolveSnapshot(provider, { snapshot, network })
  checkBlockTime({ blockNumber: pinned.blockNumber, timestamp: pinned.timestamp, network, now: (io.now ?? Date.now)() })
  const actionId = options.actionId === undefined ? {} : { actionId: options.actionId }
  const plans: { source: string; strategy: string; options: Record<string, unknown> }[] = [
    { source: 'Human ID on chain (SBTs and clean-hands attestations at the block)', strategy: 'human-id', options: { credentials: [...humanCredentials], match: 'any', source: 'chain', ...actionId } },
    { source: 'Human ID API and attestation index', strategy: 'human-id', options: { credentials: [...humanCredentials], match: 'any', source: 'api', ...actionId } },
    { source: 'Passport score at the snapshot', strategy: 'passport-v2', options: { mode: 'gated' } },
  ]
  let resolved: ResolvedSnapshot | null = null
  const sources: VerifySourceReport[] = []
  for (const plan of plans) {
    const definition = findStrategyDefinition(plan.strategy) as StrategyDefinition<unknown, unknown, unknown>
    try {
      const run: StrategyRun = await runStrategy(definition, { network, provider, addresses: [address], options: plan.options, snapshot: pinned.blockNumber, context })
      resolved ??= run.snapshot
      const answer = run.results.get(address)!
      sources.push({ ...plan, verdicts: explainStrategyDetail(answer.detail).verdicts.map(toAuditVerdict) })
    } catch (error) {
      // A block that cannot be read fails every source alike: that is the command's error.
      if (error instanceof BaseError && (error.code === 'BLOCK_NOT_AVAILABLE' || error.code === 'BLOCK_IN_FUTURE' || error.code === 'INVALID_PARAMETER' || error.code === 'INVALID_ADDRESS')) throw error
      sources.push({ ...plan, verdicts: [], error: describeError(error) })
    }
  }
  return { address, network, snapshot: resolved ? { blockNumber: resolved.blockNumber.toString(), timestamp: resolved.timestamp } : null, sources, decision: decide(sources), unanswered: sources.filter((source) => source.error).map((source) => source.source) }
}

function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof BaseError) return { code: error.code, message: error.shortMessage }
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) }
}

/** Human ID first (any credential valid from any source that answered), else a passing Passport score. */
function decide(sources: readonly VerifySourceReport[]): VerifyReport['decision'] {
  const verdicts = sources.flatMap((source) => source.verdicts)
  const human = verdicts.find((verdict) => verdict.source === 'human-id' && verdict.valid)
  if (human) return { eligible: true, method: human.credential }
  const passport = verdicts.find((verdict) => verdict.source === 'passport')
  const humanAnswered = sources.some((source) => source.strategy === 'human-id' && !source.error)
  if (passport?.valid) return { eligible: true, method: 'passport' }
  // Without an answer from Human ID and from Passport, nothing can be said.
  if (!humanAnswered || !passport) return null
  return { eligible: false, method: null }
}

function expiry(seconds: number | null | undefined): string {
  return seconds === null || seconds === undefined ? '' : ` until ${new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')}`
}

/** The report as lines for a person. */
export function formatVerifyReport(report: VerifyReport): string[] {
  const lines = [
    `${report.address} on network ${report.network}${report.snapshot ? ` at block ${report.snapshot.blockNumber} (${new Date(report.snapshot.timestamp * 1000).toISOString()})` : ''}`,
    '',
  ]
  for (const source of report.sources) {
    lines.push(`${source.source}:`)
    if (source.error) {
      lines.push(`  not answered: ${source.error.message} (${source.error.code})`)
      continue
    }
    for (const verdict of source.verdicts) {
      const detail = verdict.credential === 'passport' ? passportDetail(verdict) : ''
      lines.push(`  ${verdict.valid ? 'yes' : 'no '}  ${verdict.credential.padEnd(11)} ${verdict.reason}${expiry(verdict.expiresAt)}${detail}`)
    }
  }
  lines.push('')
  if (report.unanswered.length) {
    lines.push(`Incomplete: ${report.unanswered.length} of ${report.sources.length} sources did not answer (${report.unanswered.join('; ')}); the answer below stands on the others only.`)
  }
  lines.push(
    report.decision === null
      ? 'Eligible: unknown, a source did not answer.'
      : report.decision.eligible
        ? `Eligible: yes, by ${report.decision.method}.`
        : 'Eligible: no, by no source.',
  )
  // What the chain cannot see (field notes §4): said wherever a verdict may be compared with the app.
  if (report.sources.some((source) => source.verdicts.some((verdict) => verdict.credential !== 'passport' && verdict.valid))) {
    lines.push(`Note: ${"Human ID's app and API first consult an off-chain blocklist and may refuse an address the chain still counts: the strategies (and this package) read the chain, which cannot show that list."}`)
  }
  return lines
}

function passportDetail(verdict: AuditSourceVerdict): string {
  const evidence = verdict.evidence as { score?: string | null; threshold?: string; origin?: string } | undefined
  if (!evidence) return ''
  return ` (score ${evidence.score ?? 'none'}, threshold ${evidence.threshold}, from the ${evidence.origin})`
}

/**
 * Colours a line of {@link formatVerifyReport} (after it was sanitized): each verdict's yes or no,
 * and the final answer.
 */
export function colourVerifyLine(line: string, colours: Pick<Colours, 'good' | 'bad'>): string {
  if (line.startsWith('  yes  ')) return `  ${colours.good('yes')}${line.slice(5)}`
  if (line.startsWith('  no   ')) return `  ${colours.bad('no')}${line.slice(4)}`
  if (line.startsWith('Eligible: yes')) return colours.good(line)
  if (line.startsWith('Eligible: no')) return colours.bad(line)
  return line
}
