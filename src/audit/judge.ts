/**
 * The audit's judge: the strategy a space votes with, run at the audit's snapshot, its answer for
 * each voter turned into the audit's line (eligibility, method, every source's verdict with its
 * evidence). The audit never judges by rules of its own: what it reports for a voter is what the
 * strategy gives for the same snapshot.
 */
import type { Address } from 'viem'
import type { HumanCredential } from '../chain/constants.js'
import { InvalidParameterError } from '../errors/input.js'
import { explainStrategyDetail, type StrategyExplanation } from '../strategy/explain.js'
import { prepareStrategyCall, selectCallAddresses, type StrategyCall } from '../strategy/call.js'
import { runStrategy } from '../strategy/define.js'
import type { StrategyContext } from '../strategy/context.js'
import type { StrategyProvider } from '../strategy/snapshot.js'
import { createStrategyCache } from '../strategy/cache.js'
import { readerVotersPerCall } from '../verify/reader-verdicts.js'
import type { PassportVerdict, Verdict } from '../verify/verdict.js'
import type { StampEntries } from './linked.js'
import type { AuditJudge, AuditJudgment } from './run.js'
import type { AuditSourceVerdict, AuditVoter, VerificationMethod } from './types.js'
import { verificationMethods } from './types.js'

export { explainStrategyDetail, type StrategyExplanation } from '../strategy/explain.js'

/** One verdict as the audit shows it: JSON-safe, with where it came from. */
export function toAuditVerdict(verdict: Verdict): AuditSourceVerdict {
  return {
    source: verdict.credential === 'passport' ? 'passport' : 'human-id',
    via: verdict.source,
    credential: verdict.credential,
    valid: verdict.valid,
    reason: verdict.reason,
    expiresAt: verdict.expiresAt,
    evidence: verdict.evidence,
  }
}

/** The audit's Passport line for a voter, from the strategy's Passport verdict. */
export function passportLine(verdict: PassportVerdict): NonNullable<AuditVoter['passport']> {
  const { evidence } = verdict
  return {
    score: evidence.scoreValue,
    passing: verdict.valid,
    threshold: Number(evidence.threshold),
    origin: verdict.reason === 'never-scored' ? 'absent' : evidence.origin,
  }
}

const humanMethods = verificationMethods.filter((method): method is HumanCredential => method !== 'passport')

/**
 * The audit's judgment of one voter from the strategy's score and explanation: eligible as the
 * strategy decided (else when its score is above 0), by the first method of the policy's order
 * whose verdict holds.
 */
export function judgmentOf(score: number, explanation: StrategyExplanation): AuditJudgment {
  const eligible = explanation.eligible ?? score > 0
  const held = (method: VerificationMethod) => explanation.verdicts.some((verdict) => verdict.credential === method && verdict.valid)
  const method = explanation.method !== undefined ? explanation.method : eligible ? ([...humanMethods, 'passport'] as VerificationMethod[]).find(held) ?? null : null
  const passport = explanation.verdicts.find((verdict): verdict is PassportVerdict => verdict.credential === 'passport')
  return {
    score,
    eligible,
    method,
    verdicts: explanation.verdicts.map(toAuditVerdict),
    ...(passport ? { passport: passportLine(passport) } : {}),
  }
}

/**
 * Voters per strategy call of an audit: 8 calls of the Human ID reader with every credential and
 * their expiries (the audit reads them), 5,384 voters. The reader plans a call's voters by gas
 * (src/rules/reader.ts), so a strategy call of this many sends 8 reader calls, and one
 * more when its voters' clean-hands attestations take the room of some; 500 voters (score-api's
 * batch) took 2 reader calls, the second carrying a few voters.
 */
export const defaultAuditBatchSize = 8 * readerVotersPerCall({ credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], expiries: true })

/** Parameters of {@link createStrategyJudge}. */
export type CreateStrategyJudgeParameters = {
  /** The strategy call, parsed once: the strategy, its options, the network, the snapshot block and every voter. Prepared here once for every batch unless it is already ({@link prepareStrategyCall}). */
  call: StrategyCall
  /** A provider of the call's network. */
  provider: StrategyProvider
  /** Where the sources are, keys, clock (the audit passes no deadline: it may wait for rate budget). */
  context: StrategyContext
  /**
   * Voters per strategy call (progress is reported between calls). Default
   * {@link defaultAuditBatchSize}: what 8 calls of the Human ID reader hold, so that a batch's last,
   * partly filled call is one in 8 or more, not one in every batch of score-api's 500.
   */
  batchSize?: number | undefined
  /**
   * Reads voters' stamp entries at the snapshot, for linked-wallet signals (null for a voter with no
   * score record then). Optional: without it, the audit shows no linked wallets.
   */
  readStamps?: ((addresses: readonly Address[]) => Promise<ReadonlyMap<string, StampEntries | null>>) | undefined
  /** Counts the requests each strategy call sent, by source. */
  onRequests?: ((requests: Record<string, number>) => void) | undefined
}

/**
 * A judge that runs a strategy at the snapshot over the voters, in batches, and reads each voter's
 * answer into the audit's line; it hands each batch on as soon as it is judged.
 *
 * @example
 * const call = parseStrategyCall(humanVerificationStrategy, { network: '1', snapshot: 21_000_000n, addresses: voters, options })
 * const judge = createStrategyJudge({ call, provider, context })
 * const result = await runAudit({ votes, run, judge })
 */
export function createStrategyJudge(parameters: CreateStrategyJudgeParameters): AuditJudge {
  const batchSize = parameters.batchSize ?? defaultAuditBatchSize
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new InvalidParameterError({ parameter: 'batchSize', reason: `Expected a positive integer, got ${batchSize}.` })
  // One cache for every batch of the audit, so a listing read for the first batch serves the rest.
  // It holds two batches' entries: what later batches read again (the listings, block headers) is
  // used by every batch and stays; a voter's own answer (Passport's, kept for good by the strategy)
  // is never asked again in the audit, and 100,000 of them were tens of MB held to the end.
  const cache = parameters.context.cache ?? createStrategyCache({ maxEntries: 2 * batchSize + 1_000 })
  // The report shows until when each credential holds: Human ID on chain reads the expiries too.
  const humanId = { expiries: true, ...parameters.context.humanId }
  const context: StrategyContext = { deadlineMs: Infinity, ...parameters.context, humanId, cache }
  // One batch judged, in a call of its own: when it returns, nothing of the strategy's run (its
  // answers, their evidence) is left in a frame that outlives it.
  const judgeBatch = async (call: StrategyCall, batch: readonly Address[], count: (size: number) => void): Promise<Map<string, AuditJudgment>> => {
    const run = await runStrategy(call.definition, { call: selectCallAddresses(call, batch), provider: parameters.provider, context })
    parameters.onRequests?.(run.requests)
    const stamps = parameters.readStamps ? await parameters.readStamps(batch) : undefined
    const judgments = new Map<string, AuditJudgment>()
    for (const [address, answer] of run.results) {
      const judgment = judgmentOf(answer.score, explainStrategyDetail(answer.detail))
      const entries = stamps?.get(address.toLowerCase())
      judgments.set(address.toLowerCase(), entries ? { ...judgment, stamps: entries } : judgment)
    }
    count(judgments.size)
    return judgments
  }
  return async function* ({ addresses, onJudged }) {
    // Prepared once, at the first batch (a strategy's clients built once, on one rate budget).
    let call: StrategyCall | undefined
    let judged = 0
    for (let start = 0; start < addresses.length; start += batchSize) {
      call ??= parameters.call.prepared ? parameters.call : prepareStrategyCall(parameters.call, context)
      // Handed on as judged, held in no variable of this frame: a suspended generator keeps its
      // variables, and the batch (the strategy's run, every judgment) would live on while the next
      // one is judged. The audit keeps compact lines of it, not these objects.
      yield await judgeBatch(call, addresses.slice(start, start + batchSize), (size) => (judged += size))
      onJudged?.(judged)
    }
  }
}
