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
import { describeErrorCause } from '../utils/error-cause.js'
import { describeVerdict, describeVoter, verdictWordsInput, type VoterWords } from '../utils/verdict-words.js'
import { applyFallbackPolicy, type Verdict } from '../verify/verdict.js'
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
  /**
   * The answer in words, the same as the strategy server's voter page gives (src/utils/verdict-words.ts):
   * every reason that applies, each unanswered source with its real cause, and what to do next.
   */
  words: VoterWords
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
  const read: Verdict[] = []
  for (const plan of plans) {
    const definition = findStrategyDefinition(plan.strategy) as StrategyDefinition<unknown, unknown, unknown>
    try {
      const run: StrategyRun = await runStrategy(definition, { network, provider, addresses: [address], options: plan.options, snapshot: pinned.blockNumber, context })
      resolved ??= run.snapshot
      const answer = run.results.get(address)!
      const { verdicts } = explainStrategyDetail(answer.detail)
      read.push(...verdicts)
      sources.push({ ...plan, verdicts: verdicts.map(toAuditVerdict) })
    } catch (error) {
      // A block that cannot be read fails every source alike: that is the command's error.
      if (error instanceof BaseError && (error.code === 'BLOCK_NOT_AVAILABLE' || error.code === 'BLOCK_IN_FUTURE' || error.code === 'INVALID_PARAMETER' || error.code === 'INVALID_ADDRESS')) throw error
      // The real cause, not only the outer message ("The options of strategy ... are invalid" said
      // neither which option nor why); keys and RPC URLs never appear in it.
      sources.push({ ...plan, verdicts: [], error: describeErrorCause(error, [base.passport?.apiKey, rpcUrl, typeof base.humanId?.hubChain === 'string' ? base.humanId.hubChain : undefined]) })
    }
  }
  const decision = decide(sources, read)
  const words = describeVoter({
    verdicts: read.map((verdict) => verdictWordsInput(verdict)),
    eligible: decision?.eligible ?? null,
    method: decision?.method ?? null,
    credentials: [...humanCredentials],
    match: 'any',
    passport: true,
    ...(options.actionId === undefined ? {} : { actionId: options.actionId }),
    unanswered: sources.flatMap((source) => (source.error ? [{ source: source.source, cause: source.error.message }] : [])),
  })
  return { address, network, snapshot: resolved ? { blockNumber: resolved.blockNumber.toString(), timestamp: resolved.timestamp } : null, sources, decision, unanswered: sources.filter((source) => source.error).map((source) => source.source), words }
}

/**
 * human-verification's rule (the fallback policy of src/verify/rules.ts) over every source that
 * answered: Human ID first, any credential from any source; else a passing Passport score. Null
 * when it cannot be told: no Human ID source answered, or Human ID does not hold and Passport did not answer.
 */
function decide(sources: readonly VerifySourceReport[], verdicts: readonly Verdict[]): VerifyReport['decision'] {
  const humanAnswered = sources.some((source) => source.strategy === 'human-id' && !source.error)
  const passportAnswered = verdicts.some((verdict) => verdict.credential === 'passport')
  if (!humanAnswered) return null
  const decision = applyFallbackPolicy({ verdicts, credentials: [...humanCredentials], match: 'any', passport: passportAnswered })
  if (!decision.eligible && !passportAnswered) return null
  return { eligible: decision.eligible, method: decision.method }
}

/** The report as lines for a person: each source's verdicts in the shared words, the answer, why, and what to do next. */
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
      const words = describeVerdict(verdictWordsInput(verdict))
      lines.push(`  ${verdict.valid ? 'yes' : 'no '}  ${words.sentence}`)
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
        : `Eligible: no. ${report.words.headline}`,
  )
  lines.push('Why:', ...report.words.reasons.map((reason) => `  - ${reason}`))
  lines.push('Next:', ...report.words.nextSteps.map((step) => `  - ${step.text}${step.url ? ` ${step.url}` : ''}`))
  // What the chain cannot see (field notes §4): said wherever a verdict may be compared with the app.
  if (report.sources.some((source) => source.verdicts.some((verdict) => verdict.credential !== 'passport' && verdict.valid))) {
    lines.push(`Note: ${"Human ID's app and API first consult an off-chain blocklist and may refuse an address the chain still counts: the strategies (and this package) read the chain, which cannot show that list."}`)
  }
  return lines
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
