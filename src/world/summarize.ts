import type { AttestationKind, DemoStory, HumanIdCredential, ModelName, Scorer, VerificationKind, Wallet, World } from './types.js'

/** What {@link summarizeWorld} returns: counts for a demo printout. */
export type WorldSummary = {
  seed: string
  now: string
  wallets: {
    total: number
    withStamps: number
    withoutStamps: number
    labelled: number
    /** Wallets by number of stamps held: `0`, `1-3`, `4-8`, `9-15`, `16+`. */
    byStampCount: Record<string, number>
  }
  stamps: {
    total: number
    /** `expirationDate` before `now`. */
    expired: number
    /** Signed by an issuer that is not trusted. */
    untrustedIssuer: number
    /** Stamps no scorer of the world weighs (retired providers). */
    unweighted: number
    /** Second and later stamps of a provider in the same wallet (only the first counts). */
    duplicateProvider: number
    /** Credential hashes held by more than one wallet. */
    sharedHashes: number
    /** Wallets holding at least one shared hash. */
    walletsWithSharedHashes: number
  }
  sybilClusters: { clusters: number; wallets: number }
  scoring: {
    scorers: number
    /** Wallets whose weighted sum under the default scorer reaches its threshold, before dedup. */
    passingBeforeDedup: number
    /** `passingBeforeDedup / wallets.total`. */
    passingRatio: number
    scoreEvents: number
  }
  verifications: {
    total: number
    byCredential: Record<HumanIdCredential, number>
    byKind: Record<VerificationKind, number>
    byNetwork: Record<string, number>
    bySource: Record<string, number>
  }
  attestations: {
    rows: number
    /** Distinct on-chain attestations (attestation ids). */
    attestations: number
    byKind: Record<AttestationKind, number>
    /** Addresses with at least one row. */
    addresses: number
    /** Addresses with at least one row of kind valid or valid-attester-case. */
    addressesWithValid: number
  }
  cleanHandsSbts: number
  modelScores: {
    total: number
    addresses: number
    /** Scores of -1. */
    insufficientData: number
    byModel: Record<ModelName, number>
  }
  stakes: number
  roundStakes: number
  tosAcceptances: number
  apiKeys: number
  demoAccounts: Array<{ story: DemoStory; address: string }>
}

const verificationKinds: readonly VerificationKind[] = [
  'valid',
  'expired',
  'revoked',
  'custom-action',
  'sandbox',
  'sandbox-empty-public-values',
  'legacy-store',
  'zk-passport',
  'wrong-issuer',
]
const attestationKinds: readonly AttestationKind[] = [
  'valid',
  'valid-attester-case',
  'wrong-attester',
  'wrong-schema',
  'wrong-chain-schema',
  'revoked',
  'expired',
  'valid-until-now',
  'valid-until-zero',
  'not-receiver',
]
const modelNames: readonly ModelName[] = ['aggregate', 'ethereum_activity', 'nft', 'arbitrum', 'base', 'optimism', 'polygon', 'zksync']

/**
 * Counts the contents of a world for a demo printout: wallets, stamps (expired, untrusted, shared
 * hashes), verifications by credential and kind, attestations by adversarial kind, model scores,
 * stakes and the demo accounts. The passing count is an estimate before dedup (the server decides
 * dedup by claim order).
 *
 * @example
 * import { generateWorld, summarizeWorld } from 'personhood/world'
 * const summary = summarizeWorld(generateWorld({ now: '2025-06-01T00:00:00.000Z' }))
 * console.log(`${summary.wallets.total} wallets, ${summary.stamps.sharedHashes} shared hashes`)
 * console.table(summary.attestations.byKind)
 */
export function summarizeWorld(world: World): WorldSummary {
  const nowMs = Date.parse(world.now)
  const trusted = new Set(world.stampIssuers.filter((i) => i.trusted).map((i) => i.did))
  const weighed = new Set(world.scorers.flatMap((s) => Object.keys(s.weights)))
  const holders = new Map<string, Set<string>>()
  let stamps = 0
  let expired = 0
  let untrustedIssuer = 0
  let unweighted = 0
  let duplicateProvider = 0
  const byStampCount: Record<string, number> = { '0': 0, '1-3': 0, '4-8': 0, '9-15': 0, '16+': 0 }
  for (const wallet of world.wallets) {
    const n = wallet.stamps.length
    const bucket = n === 0 ? '0' : n <= 3 ? '1-3' : n <= 8 ? '4-8' : n <= 15 ? '9-15' : '16+'
    byStampCount[bucket] = (byStampCount[bucket] ?? 0) + 1
    const providers = new Set<string>()
    for (const stamp of wallet.stamps) {
      stamps++
      if (Date.parse(stamp.expirationDate) < nowMs) expired++
      if (!trusted.has(stamp.issuer)) untrustedIssuer++
      if (!weighed.has(stamp.provider)) unweighted++
      if (providers.has(stamp.provider)) duplicateProvider++
      providers.add(stamp.provider)
      let set = holders.get(stamp.hash)
      if (!set) holders.set(stamp.hash, (set = new Set()))
      set.add(wallet.address)
    }
  }
  const shared = [...holders.values()].filter((set) => set.size > 1)
  const walletsWithShared = new Set(shared.flatMap((set) => [...set]))

  const scorer = world.scorers[0]
  const passing = scorer
    ? world.wallets.filter((wallet) => isPassingBeforeDedup(wallet, scorer, { now: world.now, trustedIssuers: [...trusted] })).length
    : 0

  const byCredential: Record<HumanIdCredential, number> = { 'gov-id': 0, phone: 0, biometrics: 0 }
  const byVerificationKind = Object.fromEntries(verificationKinds.map((k) => [k, 0])) as Record<VerificationKind, number>
  const byNetwork: Record<string, number> = {}
  const bySource: Record<string, number> = {}
  for (const v of world.verifications) {
    byCredential[v.credential]++
    byVerificationKind[v.kind]++
    byNetwork[v.network] = (byNetwork[v.network] ?? 0) + 1
    bySource[v.source] = (bySource[v.source] ?? 0) + 1
  }

  const byAttestationKind = Object.fromEntries(attestationKinds.map((k) => [k, 0])) as Record<AttestationKind, number>
  for (const row of world.attestations) byAttestationKind[row.kind]++
  const validKinds = new Set<AttestationKind>(['valid', 'valid-attester-case'])

  const byModel = Object.fromEntries(modelNames.map((m) => [m, 0])) as Record<ModelName, number>
  for (const score of world.modelScores) byModel[score.model]++

  return {
    seed: world.seed,
    now: world.now,
    wallets: {
      total: world.wallets.length,
      withStamps: world.wallets.filter((w) => w.stamps.length > 0).length,
      withoutStamps: world.wallets.filter((w) => w.stamps.length === 0).length,
      labelled: world.wallets.filter((w) => w.label !== undefined).length,
      byStampCount,
    },
    stamps: {
      total: stamps,
      expired,
      untrustedIssuer,
      unweighted,
      duplicateProvider,
      sharedHashes: shared.length,
      walletsWithSharedHashes: walletsWithShared.size,
    },
    sybilClusters: {
      clusters: world.sybilClusters.length,
      wallets: world.sybilClusters.reduce((sum, c) => sum + c.members.length, 0),
    },
    scoring: {
      scorers: world.scorers.length,
      passingBeforeDedup: passing,
      passingRatio: world.wallets.length === 0 ? 0 : Math.round((passing / world.wallets.length) * 1000) / 1000,
      scoreEvents: world.scoreEvents.length,
    },
    verifications: {
      total: world.verifications.length,
      byCredential,
      byKind: byVerificationKind,
      byNetwork,
      bySource,
    },
    attestations: {
      rows: world.attestations.length,
      attestations: new Set(world.attestations.map((a) => a.attestationId)).size,
      byKind: byAttestationKind,
      addresses: new Set(world.attestations.map((a) => a.address)).size,
      addressesWithValid: new Set(world.attestations.filter((a) => validKinds.has(a.kind)).map((a) => a.address)).size,
    },
    cleanHandsSbts: world.cleanHandsSbts.length,
    modelScores: {
      total: world.modelScores.length,
      addresses: new Set(world.modelScores.map((s) => s.address)).size,
      insufficientData: world.modelScores.filter((s) => s.score === -1).length,
      byModel,
    },
    stakes: world.stakes.length,
    roundStakes: world.roundStakes.length,
    tosAcceptances: world.tosAcceptances.length,
    apiKeys: world.apiKeys.length,
    demoAccounts: world.demoAccounts.map((a) => ({ story: a.story, address: a.address })),
  }
}

/**
 * The weighted sum of a wallet's stamps under a scorer, before dedup, in thousandths (weights have at
 * most 3 decimals): the first stamp per provider counts, expired stamps and stamps of untrusted
 * issuers do not, a stamp without a weight counts 0.
 * @internal
 */
export function weighStampsBeforeDedup(
  wallet: Wallet,
  scorer: Scorer,
  options: { now: string; trustedIssuers: readonly string[] },
): number {
  const nowMs = Date.parse(options.now)
  const trusted = new Set(options.trustedIssuers)
  const counted = new Set<string>()
  let sum = 0
  for (const stamp of wallet.stamps) {
    if (Date.parse(stamp.expirationDate) < nowMs || !trusted.has(stamp.issuer) || counted.has(stamp.provider)) continue
    counted.add(stamp.provider)
    sum += toThousandths(scorer.weights[stamp.provider] ?? '0')
  }
  return sum
}

/** Whether {@link weighStampsBeforeDedup} reaches the scorer's threshold. @internal */
export function isPassingBeforeDedup(
  wallet: Wallet,
  scorer: Scorer,
  options: { now: string; trustedIssuers: readonly string[] },
): boolean {
  return weighStampsBeforeDedup(wallet, scorer, options) >= toThousandths(scorer.threshold)
}

function toThousandths(decimal: string): number {
  return Math.round(Number(decimal) * 1000)
}
