/**
 * The demo world generator: `generateWorld` checks its parameters, then each record family fills a
 * draft in a fixed order (the order of the random draws, so the same seed gives the same world):
 * wallets and their stamps (`generate/wallets.ts`), score events, Human ID records, model scores,
 * stakes, terms, and the services' records (catalogue, scorers, keys).
 */
import { InvalidParameterError } from '../../errors/input.js'
import { optimismChainId } from '../constants.js'
import type { World } from '../types.js'
import { createDraft, type Draft } from './draft.js'
import { cleanHandsSbts, fillAttestations, fillVerifications } from './human-id.js'
import { worldWalletLimits } from './mix.js'
import { modelScores } from './model-scores.js'
import { onchainPassports } from './onchain-passports.js'
import { fillScoreEvents } from './score-events.js'
import { apiKeys, scorers, stampProviders } from './services.js'
import { stakes } from './stakes.js'
import { tosAcceptances } from './terms.js'
import { assignRoles, createWallets, fillClusters, fillDemoAccounts, fillPopulation } from './wallets.js'

export { demoCustomActionId, worldMix, worldWalletLimits } from './mix.js'

/** Parameters of {@link generateWorld}. */
export type GenerateWorldParameters = {
  /** Any non-empty string; the same seed and `now` give the same world, byte for byte. Default `personhood-demo`. */
  seed?: string
  /** How many wallets, demo accounts included (50 to 100,000). Default 1,000. */
  wallets?: number
  /** The reference time every date is relative to: a Date or an ISO 8601 string. Never read from the clock. */
  now: Date | string
}

/** What {@link generateWorld} returns. */
export type GenerateWorldReturnType = World

/**
 * Generates the demo world: stamp providers and scorers, API keys, wallets with stamps (sybil
 * clusters, expired stamps, an untrusted issuer), Human ID verifications and clean-hands attestations
 * with every adversarial case, model scores, stakes and demo accounts with known keys.
 *
 * Deterministic: the same `seed`, `wallets` and `now` give a byte-identical `JSON.stringify`. The
 * random draws follow {@link worldMix}; the adversarial cases are placed on purpose, at least once
 * each, and tagged with `kind` (verifications, attestations) or `label` (wallets).
 *
 * @throws {InvalidParameterError} when `seed` is empty, `wallets` is not an integer from 50 to
 * 100,000, or `now` is not a valid date.
 * @example
 * import { generateWorld, summarizeWorld } from 'personhood/world'
 * const world = generateWorld({ seed: 'personhood-demo', wallets: 1000, now: '2025-06-01T00:00:00.000Z' })
 * world.demoAccounts[0].story // 'passing-stamps'
 * console.table(summarizeWorld(world).verifications.byKind)
 */
export function generateWorld(parameters: GenerateWorldParameters): GenerateWorldReturnType {
  const { seed = 'personhood-demo', wallets: walletCount = 1000, now } = parameters
  if (typeof seed !== 'string' || seed.length === 0)
    throw new InvalidParameterError({ parameter: 'seed', reason: 'The seed must be a non-empty string.' })
  if (!Number.isInteger(walletCount) || walletCount < worldWalletLimits.min || walletCount > worldWalletLimits.max)
    throw new InvalidParameterError({
      parameter: 'wallets',
      reason: `The number of wallets must be an integer from ${worldWalletLimits.min} to ${worldWalletLimits.max}, got ${String(walletCount)}.`,
    })
  const nowMs = now instanceof Date ? now.getTime() : typeof now === 'string' ? Date.parse(now) : Number.NaN
  if (!Number.isFinite(nowMs))
    throw new InvalidParameterError({ parameter: 'now', reason: 'The reference time must be a valid Date or ISO 8601 string.' })

  return build(createDraft(seed, walletCount, nowMs))
}

/** Fills the draft, family by family, and returns the world. */
function build(d: Draft): World {
  createWallets(d)
  assignRoles(d)
  fillDemoAccounts(d)
  fillClusters(d)
  fillPopulation(d)
  fillScoreEvents(d)
  fillVerifications(d)
  fillAttestations(d)
  const scores = modelScores(d)
  const pushes = onchainPassports(d)
  const staked = stakes(d)
  const acceptances = tosAcceptances(d)
  d.scoreEvents.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.address < b.address ? -1 : a.address > b.address ? 1 : a.scorerId - b.scorerId))
  return {
    version: 1,
    seed: d.seed,
    now: new Date(d.nowMs).toISOString(),
    chain: { chainId: optimismChainId, genesisTime: d.genesisTime, blockTimeSeconds: d.blockTimeSeconds },
    stampProviders: stampProviders(),
    stampIssuers: d.issuers,
    scorers: scorers(),
    apiKeys: apiKeys(d),
    wallets: d.wallets.map(({ address, label, stamps }) => (label === undefined ? { address, stamps } : { address, label, stamps })),
    verifications: d.verifications,
    attestations: d.attestations,
    cleanHandsSbts: cleanHandsSbts(d),
    onchainPassports: pushes,
    modelScores: scores,
    stakes: staked.stakes,
    roundStakes: staked.roundStakes,
    scoreEvents: d.scoreEvents,
    tosAcceptances: acceptances,
    sybilClusters: d.sybilClusters,
    demoAccounts: d.demoAccounts,
  }
}
