/**
 * `human-verification`: the fallback path most spaces want. A voter verified by a Human ID
 * credential at the snapshot gets `verifiedScore`; otherwise one whose Passport `passing_score` held
 * at the snapshot gets `passportScore`; otherwise 0. Passport is asked only about the voters Human
 * ID did not verify, so a space of verified humans spends no Passport budget at all.
 */
import type { Address } from 'viem'
import { z } from 'zod'
import { applyFallbackPolicy, type FallbackDecision, type HumanIdVerdict, type PassportVerdict, type Verdict, type VerdictCredential } from '../verify/verdict.js'
import { getPassportSources, type PassportSources } from './context.js'
import { defineStrategy, type StrategyScoreParameters } from './define.js'
import { hubChainAt, humanIdOptionFields, readHumanIdAt, type HumanIdDetail } from './human-id.js'
import { readOnchainPassportVerdictsAt } from './passport-onchain.js'
import { symbolOption } from './options.js'
import { readPassportScoresAt } from './passport-scores.js'
import { passportV2OptionsSchema, resolvePassportScorerId } from './passport-v2.js'
import type { RequestedSnapshot, ResolvedSnapshot } from './snapshot.js'
import { baseSepoliaNetwork } from '../chain/constants.js'
import { passportApiOptions, passportDecoders } from '../rules/passport-onchain.js'

const passportFields = passportV2OptionsSchema.shape

/** The options of `human-verification`, as a space configures them. */
export const humanVerificationOptionsSchema = z
  .object({
    symbol: symbolOption,
    ...humanIdOptionFields,
    credentials: humanIdOptionFields.credentials.default(['gov-id', 'phone', 'biometrics']),
    verifiedScore: z.number().positive().default(1).meta({ title: 'Score of a Human ID verified voter', description: 'Default 1.' }),
    passportScore: z.number().min(0).default(1).meta({ title: 'Score of a passing Passport', description: 'For voters Human ID did not verify. Default 1; 0 turns the fallback off.' }),
    passportSource: passportFields.source,
    scorerId: passportFields.scorerId,
    threshold: passportFields.threshold,
    allowLiveScore: passportFields.allowLiveScore,
  })
  .strict()
  .superRefine(refinePassportSource)

/**
 * With Passport's on-chain source (human-verification, human-gated): the API's options are refused,
 * and so is the fallback in the sandbox, whose chain has no decoder (as the folders refuse them).
 */
export function refinePassportSource(
  options: { passportSource?: 'api' | 'onchain' | undefined; scorerId?: unknown; allowLiveScore?: boolean | undefined; sandbox?: boolean | undefined; passportScore?: number | undefined },
  context: z.RefinementCtx,
): void {
  if (options.passportSource !== 'onchain') return
  if (options.sandbox && options.passportScore !== 0 && passportDecoders[String(baseSepoliaNetwork.chainId)] === undefined) {
    context.addIssue({ code: 'custom', path: ['passportScore'], message: 'The sandbox (Base Sepolia) has no on-chain Passport: set passportScore to 0.' })
  }
  for (const key of passportApiOptions) {
    const value = (options as Record<string, unknown>)[key]
    if (value !== undefined && value !== false) context.addIssue({ code: 'custom', path: [key], message: `${key} belongs to the Passport API; passportSource onchain reads Passport's own model on chain.` })
  }
}

/** The options of `human-verification`, read. */
export type HumanVerificationOptions = z.output<typeof humanVerificationOptionsSchema>

/** What `human-verification` scores with, once the options and the context are settled. */
export type HumanVerificationPrepared = HumanVerificationOptions & {
  /** The Passport scorer and sources; absent when the fallback is off (`passportScore: 0`). */
  passport?: { scorerId: string; sources: PassportSources } | { onchain: true } | undefined
}

/** What a voter's answer rests on: the fallback decision and every verdict read. */
export type HumanVerificationDetail = {
  eligible: boolean
  /** The first credential (in the configured order) that held, `passport`, or null. */
  method: VerdictCredential | null
  /** Every Human ID verdict (one per credential), and the Passport verdict when it was asked. */
  verdicts: Verdict[]
  decision: FallbackDecision
  hubBlock: HumanIdDetail['hubBlock']
}

/**
 * The `human-verification` strategy.
 *
 * @example
 * import { humanVerificationStrategy, runStrategy } from 'personhood'
 * const { scores } = await runStrategy(humanVerificationStrategy, {
 *   network: '1', provider, addresses, snapshot: 21_000_000,
 *   options: { credentials: ['gov-id', 'phone', 'biometrics'], scorerId: 335 },
 *   context: { humanId: { hubChain: process.env.HUMAN_ID_RPC_URL }, passport: { apiKey: process.env.PASSPORT_API_KEY } },
 * })
 */
export const humanVerificationStrategy = defineStrategy<HumanVerificationOptions, HumanVerificationDetail, HumanVerificationPrepared>({
  name: 'human-verification',
  title: 'Human ID, else a passing Passport, at the snapshot',
  optionsSchema: humanVerificationOptionsSchema,
  prepare({ strategy, options, runtime }) {
    if (options.passportScore === 0) return options
    if (options.passportSource === 'onchain') return { ...options, passport: { onchain: true } }
    return { ...options, passport: { scorerId: resolvePassportScorerId(strategy, options.scorerId, runtime), sources: getPassportSources(runtime, strategy) } }
  },
  async score(parameters) {
    return (await scoreHumanVerification(parameters)).results
  },
  // On the hub chain the reader returns the block's time (Passport's time too): no header is read first.
  scoreRequested: scoreHumanVerification,
})

async function scoreHumanVerification({
  strategy,
  network,
  provider,
  addresses,
  options,
  snapshot: asked,
  runtime,
}: StrategyScoreParameters<HumanVerificationPrepared, ResolvedSnapshot | RequestedSnapshot>) {
  const { details: humanId, snapshot } = await readHumanIdAt({ strategy, options, network, provider, addresses, snapshot: asked, runtime })
  const unverified = addresses.filter((address) => !humanId.get(address)!.eligible)
  const passport = new Map<Address, PassportVerdict>()
  if (options.passport && 'onchain' in options.passport && unverified.length > 0) {
    const hubBlock = humanId.get(unverified[0]!)!.hubBlock
    const hub = await hubChainAt({ strategy, runtime, network, provider, snapshot, addresses: unverified, sandbox: options.sandbox, block: hubBlock })
    const read = await readOnchainPassportVerdictsAt({ strategy, runtime, network, provider, snapshot, addresses: unverified, threshold: options.threshold, hub: { client: hub.client, block: hubBlock } })
    for (const [address, verdict] of read) passport.set(address, verdict)
  } else if (options.passport && 'scorerId' in options.passport && unverified.length > 0) {
    const read = await readPassportScoresAt({
      sources: options.passport.sources,
      scorerId: options.passport.scorerId,
      addresses: unverified,
      at: snapshot.timestamp,
      threshold: options.threshold,
      allowLiveScore: options.allowLiveScore,
      runtime,
    })
    for (const [address, verdict] of read.verdicts) passport.set(address, verdict)
  }
  const results = new Map(
    addresses.map((address) => {
      const detail = humanId.get(address)!
      const passportVerdict = passport.get(address)
      const verdicts: Verdict[] = [...(detail.verdicts as HumanIdVerdict[]), ...(passportVerdict ? [passportVerdict] : [])]
      const decision = applyFallbackPolicy({ verdicts, credentials: options.credentials, match: options.match, passport: options.passport !== undefined })
      const score = !decision.eligible ? 0 : decision.method === 'passport' ? options.passportScore : options.verifiedScore
      return [address, { score, detail: { eligible: decision.eligible, method: decision.method, verdicts, decision, hubBlock: detail.hubBlock } }] as const
    }),
  )
  return { snapshot, results }
}
