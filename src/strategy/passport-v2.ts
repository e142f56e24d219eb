/**
 * `passport-v2`: voting power from a Passport scorer's score as it stood at the snapshot. Gated (a
 * fixed score for a passing Passport) or weighted (the score itself), in a few requests per call.
 */
import { z } from 'zod'
import { StrategyOptionsError } from '../errors/strategy.js'
import { tryParseInteger } from '../utils/parse.js'
import { passportVerdictValue, type PassportWeighting } from '../verify/passport.js'
import type { PassportVerdict } from '../verify/verdict.js'
import { getPassportSources, type PassportSources, type StrategyRuntime } from './context.js'
import { defineStrategy } from './define.js'
import { symbolOption } from './options.js'
import { readOnchainPassportVerdictsAt } from './passport-onchain.js'
import { readPassportScoresAt } from './passport-scores.js'
import { passportApiOptions } from '../rules/passport-onchain.js'

/** The options of `passport-v2`, as a space configures them. */
export const passportV2OptionsSchema = z
  .object({
    symbol: symbolOption,
    source: z
      .enum(['api', 'onchain'])
      .default('api')
      .meta({
        title: 'Passport source',
        description:
          "api: the space's scorer through the Passport API (answers kept from vote time: the strategy server, the library's cache). onchain: Passport's own model as pushed on chain, exact at any block for every voter in one call (only voters who pushed).",
      }),
    scorerId: z
      .number()
      .int()
      .min(1)
      .optional()
      .meta({ title: 'Scorer id', description: 'Your scorer in the Passport developer portal. Default: the PASSPORT_SCORER_ID of the score server.' }),
    mode: z
      .enum(['gated', 'weighted'])
      .default('gated')
      .meta({ title: 'Mode', description: 'gated: `score` for a Passport that passed at the snapshot, else 0. weighted: the Passport score itself.' }),
    score: z.number().positive().optional().meta({ title: 'Score of a passing Passport (gated)', description: 'Default 1.' }),
    threshold: z
      .number()
      .min(0)
      .optional()
      .meta({ title: 'Threshold', description: "The score a Passport must reach. Default: the scorer's own (20 when its scores carry none). In weighted mode, scores below it count 0." }),
    cap: z.number().positive().optional().meta({ title: 'Cap (weighted)', description: 'The most a voter can weigh in weighted mode.' }),
    allowLiveScore: z
      .boolean()
      .default(false)
      .meta({
        title: 'Allow the current score',
        description: 'When the API key may not read score history, count the current score of voters rescored after the snapshot instead of failing.',
      }),
  })
  .strict()
  .superRefine((options, context) => {
    if (options.mode === 'gated' && options.cap !== undefined) context.addIssue({ code: 'custom', path: ['cap'], message: 'cap applies in weighted mode only.' })
    if (options.source === 'onchain') {
      for (const key of passportApiOptions) {
        const value = (options as Record<string, unknown>)[key]
        if (value !== undefined && value !== false) context.addIssue({ code: 'custom', path: [key], message: `${key} belongs to the Passport API; source onchain reads Passport's own model on chain.` })
      }
    }
    if (options.mode === 'weighted' && options.score !== undefined) context.addIssue({ code: 'custom', path: ['score'], message: 'score applies in gated mode only (weighted mode counts the Passport score itself).' })
  })

/** The options of `passport-v2`, read. */
export type PassportV2Options = z.output<typeof passportV2OptionsSchema>

/** What `passport-v2` scores with, once the options and the context are settled. */
export type PassportV2Prepared = {
  source: 'api' | 'onchain'
  scorerId: string
  weighting: PassportWeighting
  threshold: number | undefined
  allowLiveScore: boolean
  sources: PassportSources
}

/**
 * The scorer a Passport strategy reads: the options' `scorerId`, else the context's
 * (`PASSPORT_SCORER_ID` on a score server).
 *
 * @throws {StrategyOptionsError} when neither names one, or the context's is not a positive integer (before any request).
 */
export function resolvePassportScorerId(strategy: string, fromOptions: number | undefined, runtime: StrategyRuntime): string {
  if (fromOptions !== undefined) return String(fromOptions)
  const configured = runtime.context.passport?.scorerId
  if (configured === undefined) {
    throw new StrategyOptionsError({ strategy, issues: [{ path: ['scorerId'], message: 'No scorer: set scorerId in the options, or PASSPORT_SCORER_ID on the score server.' }] })
  }
  const parsed = tryParseInteger(configured, { min: 1, strings: true })
  if (parsed === undefined) {
    throw new StrategyOptionsError({ strategy, issues: [{ path: ['PASSPORT_SCORER_ID'], message: `Expected a positive integer, got "${String(configured).slice(0, 20)}".` }] })
  }
  return String(parsed)
}

/**
 * The `passport-v2` strategy. Its answer for a voter is the Passport score as it stood at the
 * snapshot block's time: from the scorer's listing (C4) when the voter was last scored at or
 * before that time, from the score history (A2) when rescored since; 0 for a voter the scorer had
 * not scored by then, or whose score had expired by then. `gated` answers `score` (default 1) for a
 * score at or above the threshold, else 0; `weighted` the score itself (at most `cap`; 0 below
 * `threshold` when one is set). The rule is {@link checkPassportScore}'s, through
 * {@link passportVerdictValue}.
 *
 * With `source: 'onchain'` it reads Passport's own model on chain instead (the decoder's
 * `getScore`, one `eth_call` per 500 voters at the snapshot's block: exact at any age, only voters
 * who pushed their Passport), as the score-api folder does.
 *
 * Requests per call (API): one block read, then the listing's pages (1,000 rows each) or one listing read
 * per voter, whichever is fewer, plus one history read per voter rescored after the snapshot.
 *
 * @throws {StrategyOptionsError} without a scorer id or an API key (before any request).
 * @throws {PassportHistoryDeniedError} when voters were rescored after the snapshot and the key may
 * not read score history (unless `allowLiveScore`).
 * @throws {StrategySourceError}, {@link RateBudgetError} or {@link StrategyDeadlineError}: see {@link runStrategy}.
 *
 * @example
 * import { runStrategy, passportV2Strategy } from 'personhood'
 * const { scores } = await runStrategy(passportV2Strategy, {
 *   network: '1', provider, addresses, snapshot: 21_000_000,
 *   options: { scorerId: 335, mode: 'weighted', cap: 50 },
 *   context: { passport: { apiKey: process.env.PASSPORT_API_KEY } },
 * })
 */
export const passportV2Strategy = defineStrategy<PassportV2Options, PassportVerdict, PassportV2Prepared>({
  name: 'passport-v2',
  title: 'Passport v2 score at the snapshot',
  optionsSchema: passportV2OptionsSchema,
  prepare({ strategy, options, runtime }) {
    const onchain = options.source === 'onchain'
    const scorerId = onchain ? '' : resolvePassportScorerId(strategy, options.scorerId, runtime)
    return {
      source: options.source,
      scorerId,
      weighting: options.mode === 'gated' ? { mode: 'gated', score: options.score ?? 1 } : { mode: 'weighted', cap: options.cap, gate: options.threshold !== undefined },
      threshold: options.threshold,
      allowLiveScore: options.allowLiveScore,
      sources: onchain ? ({} as PassportSources) : getPassportSources(runtime, strategy),
    }
  },
  async score({ strategy, network, provider, addresses, options, snapshot, runtime }) {
    if (options.source === 'onchain') {
      const verdicts = await readOnchainPassportVerdictsAt({ strategy, runtime, network, provider, snapshot, addresses, threshold: options.threshold })
      return new Map([...verdicts].map(([address, verdict]) => [address, { score: passportVerdictValue(verdict, options.weighting), detail: verdict }]))
    }
    const { verdicts } = await readPassportScoresAt({
      sources: options.sources,
      scorerId: options.scorerId,
      addresses,
      at: snapshot.timestamp,
      threshold: options.threshold,
      allowLiveScore: options.allowLiveScore,
      runtime,
    })
    return new Map([...verdicts].map(([address, verdict]) => [address, { score: passportVerdictValue(verdict, options.weighting), detail: verdict }]))
  },
})
