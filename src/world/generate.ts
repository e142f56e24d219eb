import { bytesToBigInt, getAddress, keccak256, toBytes, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { InvalidParameterError } from '../errors/input.js'
import { normalizeAddress } from '../utils/address.js'
import { stampIssuerDid } from '../verify/stamp-credential.js'
import { alternateWeights, catalogue, defaultWeights, farmableStamps, retiredStamp } from './catalogue.js'
import {
  cleanHandsAttester,
  cleanHandsFullSchemaId,
  cleanHandsSchemaId,
  defaultActionIdText,
  defaultThreshold,
  humanIdCircuitIds,
  humanIdIssuers,
  optimismChainId,
  stampLifetimeSeconds,
  tosType,
  untrustedHumanIdIssuer,
  verificationLifetimeSeconds,
} from './constants.js'
import { createRandom, type Random } from './random.js'
import type {
  ApiKey,
  AttestationKind,
  AttestationRow,
  CleanHandsSbt,
  DemoAccount,
  DemoStory,
  HumanIdCredential,
  ModelName,
  ModelScore,
  RoundStake,
  ScoreEvent,
  Scorer,
  Stake,
  Stamp,
  StampIssuer,
  StampProvider,
  SybilCluster,
  TosAcceptance,
  Verification,
  VerificationKind,
  Wallet,
  World,
} from './types.js'

/**
 * The custom action id of the world's `custom-action` verifications (app-specific uniqueness).
 *
 * @example
 * world.verifications.filter((v) => v.actionId === demoCustomActionId) // valid only when asked for this action
 */
export const demoCustomActionId = '987654321'

/**
 * The smallest and largest number of wallets {@link generateWorld} accepts.
 *
 * @example
 * generateWorld({ wallets: worldWalletLimits.min, now }) // the smallest world that holds every case
 */
export const worldWalletLimits = { min: 50, max: 100_000 } as const

/**
 * The mix of the generated population: the probabilities {@link generateWorld} draws with. With the
 * default seed and 1,000 wallets they give about 20% of wallets passing the default scorer
 * (threshold 20) before dedup.
 *
 * Every generated wallet outside the sybil clusters gets a persona. A persona scales how often the
 * wallet holds each stamp (the catalogue gives each stamp's share among regular wallets), how old its
 * stamps are, and the odds of its verifications, attestations, model scores and stakes.
 *
 * @example
 * console.table(worldMix.personas) // { power: 0.24, regular: 0.5, newcomer: 0.18, dormant: 0.08 }
 */
export const worldMix = {
  /** Shares of the personas among generated wallets outside the sybil clusters. */
  personas: { power: 0.24, regular: 0.5, newcomer: 0.18, dormant: 0.08 },
  /** How much more often than a regular wallet a persona holds each stamp. */
  stampMultiplier: { power: 3.2, regular: 1.2, newcomer: 0.35, dormant: 1.2 },
  /** A non-dormant wallet refreshed its stamps 0.5-85 days ago; a dormant one 95-400 days ago (all expired). */
  refreshDays: { active: [0.5, 85], dormant: [95, 400] },
  /** Share of a non-dormant wallet's stamps issued 92-200 days ago (so expired). */
  oldStampShare: 0.06,
  /** Share of stamps signed by the untrusted issuer (dropped before scoring). */
  untrustedIssuerShare: 0.007,
  /** Share of stamps signed by the previous (rotated, still trusted) issuer. */
  rotatedIssuerShare: 0.15,
  /** Share of wallets holding a second credential of a provider they already hold (only the first counts). */
  duplicateProviderShare: 0.03,
  /** Sybil clusters: one per 60 wallets (at least 3), 3-8 wallets each, sharing 3-6 farmable credentials. */
  sybilClusters: { walletsPerCluster: 60, minClusters: 3, size: [3, 8], sharedCredentials: [3, 6] },
  /** Share of wallets with 1-3 past score requests (A1 mostly, some C2), spread over the scorers. */
  scoreEventShare: 0.35,
  /** Share of each persona holding a Human ID credential. */
  verifications: {
    'gov-id': { power: 0.15, regular: 0.05, newcomer: 0.02, dormant: 0.04 },
    phone: { power: 0.12, regular: 0.05, newcomer: 0.03, dormant: 0.03 },
    biometrics: { power: 0.06, regular: 0.02, newcomer: 0.01, dormant: 0.01 },
  },
  /** What a random verification is (biometrics has no legacy store: its legacy share is valid). */
  verificationKinds: { valid: 0.8, expired: 0.12, revoked: 0.03, 'legacy-store': 0.05 },
  /** Share of wallets also holding a sandbox SBT on Base Sepolia. */
  sandboxShare: 0.01,
  /** Share of each persona holding a valid clean-hands attestation; a fifth of them also an expired one. */
  attestations: { power: 0.08, regular: 0.025, newcomer: 0.01, dormant: 0.02 },
  attestationRenewalShare: 0.2,
  /** Model scores: share with an aggregate score, share of -1 among them, share with each other model. */
  modelScores: { aggregate: 0.75, insufficientData: 0.07, otherModel: 0.3 },
  /** Shares of wallets with a self stake (power users, others), a community stake, a v1 round stake, accepted terms. */
  stakes: { selfPower: 0.12, selfOther: 0.03, community: 0.02, rounds: 0.015 },
  tosShare: 0.04,
} as const

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

type Persona = keyof typeof worldMix.personas
type WalletMeta = { persona: Persona | 'sybil' | 'demo'; refreshMs: number }

const second = 1000
const hour = 3600 * second
const day = 24 * hour
const yearSeconds = verificationLifetimeSeconds
const demoStories: ReadonlyArray<{ story: DemoStory; description: string }> = [
  {
    story: 'passing-stamps',
    description:
      'Passes the default scorer (threshold 20) with stamps alone. Has one past score in the score history (A2), a self stake, a stake in a v1 funding round and accepted terms.',
  },
  {
    story: 'gov-id-verified',
    description:
      'Fails the default scorer (a few light stamps), but holds a valid government-ID SBT on Optimism for the default action: verified by the Human ID verification (E1) and voting-strategy (E4) endpoints.',
  },
  {
    story: 'clean-hands-only',
    description: 'No stamps and no SBT: one attestation that passes the clean-hands rule is all it has.',
  },
  {
    story: 'sybil',
    description:
      'Presents the same credentials as an earlier-scored wallet of its farm: every stamp is dedup\'ed, so it scores 0 although its weights sum above 20.',
  },
  { story: 'nothing', description: 'Nothing anywhere: no stamps, verifications, attestations, model scores or stakes.' },
]
const modelNames: readonly ModelName[] = ['aggregate', 'ethereum_activity', 'nft', 'arbitrum', 'base', 'optimism', 'polygon', 'zksync']

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

  const g = new Generator(seed, walletCount, nowMs)
  return g.build()
}

class Generator {
  private readonly rng: Random
  private readonly nowSec: number
  private readonly genesisTime: number
  private readonly blockTimeSeconds = 2
  private readonly wallets: Wallet[] = []
  private readonly meta: WalletMeta[] = []
  private readonly issuers: StampIssuer[]
  private readonly demoAccounts: DemoAccount[]
  private readonly verifications: Verification[] = []
  private readonly attestations: AttestationRow[] = []
  private readonly scoreEvents: ScoreEvent[] = []
  private readonly sybilClusters: SybilCluster[] = []
  private nextAttestationId = 0x1a0
  /** Indices of generated wallets outside the clusters and the fixed cases: the random population. */
  private readonly ordinary: number[] = []
  private readonly fixedVerificationWallets: number[] = []
  private readonly fixedAttestationWallets: number[] = []
  private clusterPlans: Array<{ kind: 'demo' | 'expired-owner' | 'normal'; members: number[] }> = []

  constructor(
    private readonly seed: string,
    private readonly walletCount: number,
    private readonly nowMs: number,
  ) {
    this.rng = createRandom(`personhood-world:v1:${seed}`)
    this.nowSec = Math.floor(nowMs / second)
    this.genesisTime = Math.floor((this.nowSec - 4 * 365 * 86400) / 86400) * 86400
    this.issuers = [
      this.stampIssuer('current', true),
      this.stampIssuer('rotated', true),
      this.stampIssuer('untrusted', false),
    ]
    this.demoAccounts = demoStories.map(({ story, description }) => {
      const privateKey = keccak256(toBytes(`${seed}:demo-account:${story}`))
      const address = normalizeAddress(privateKeyToAccount(privateKey).address)
      return { story, description, address, privateKey }
    })
  }

  build(): World {
    this.createWallets()
    this.assignRoles()
    this.fillDemoAccounts()
    this.fillClusters()
    this.fillPopulation()
    this.fillScoreEvents()
    this.fillVerifications()
    this.fillAttestations()
    const modelScores = this.modelScores()
    const { stakes, roundStakes } = this.stakes()
    const tosAcceptances = this.tosAcceptances()
    this.scoreEvents.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.address < b.address ? -1 : a.address > b.address ? 1 : a.scorerId - b.scorerId))
    return {
      version: 1,
      seed: this.seed,
      now: new Date(this.nowMs).toISOString(),
      chain: { chainId: optimismChainId, genesisTime: this.genesisTime, blockTimeSeconds: this.blockTimeSeconds },
      stampProviders: this.stampProviders(),
      stampIssuers: this.issuers,
      scorers: this.scorers(),
      apiKeys: this.apiKeys(),
      wallets: this.wallets.map(({ address, label, stamps }) => (label === undefined ? { address, stamps } : { address, label, stamps })),
      verifications: this.verifications,
      attestations: this.attestations,
      cleanHandsSbts: this.cleanHandsSbts(),
      modelScores,
      stakes,
      roundStakes,
      scoreEvents: this.scoreEvents,
      tosAcceptances,
      sybilClusters: this.sybilClusters,
      demoAccounts: this.demoAccounts,
    }
  }

  // ---- catalogue, scorers, keys ------------------------------------------------------------

  private stampProviders(): StampProvider[] {
    return catalogue.map((p) => ({
      id: p.id,
      icon: `./assets/${p.id.charAt(0).toLowerCase()}${p.id.slice(1)}StampIcon.svg`,
      name: p.name,
      description: p.description,
      connectMessage: p.connectMessage,
      groups: p.groups.map((g) => ({
        name: g.name,
        stamps: g.stamps.map((s) => ({ name: s.name, description: s.description, hash: keccak256(toBytes(s.name)) })),
      })),
    }))
  }

  private scorers(): Scorer[] {
    return [
      { id: 1, name: 'Unique Humanity', type: 'unique-humanity', threshold: defaultThreshold, weights: defaultWeights() },
      { id: 2, name: 'Unique Humanity (2025 weights)', type: 'unique-humanity', threshold: defaultThreshold, weights: alternateWeights() },
      { id: 3, name: 'Binary Unique Humanity', type: 'binary', threshold: defaultThreshold, weights: defaultWeights() },
      { id: 4, name: 'Community Round', type: 'unique-humanity', threshold: '15', weights: defaultWeights() },
    ]
  }

  private apiKeys(): ApiKey[] {
    const key = (name: string): string => {
      const hex = keccak256(toBytes(`${this.seed}:api-key:${name}`)).slice(2)
      return `${hex.slice(0, 8)}.${hex.slice(8, 40)}`
    }
    return [
      { key: key('demo'), name: 'demo', tier: 1, historyAllowlisted: false },
      { key: key('partner'), name: 'partner', tier: 2, historyAllowlisted: false },
      { key: key('analytics'), name: 'analytics', tier: 3, historyAllowlisted: true },
      { key: key('indexer'), name: 'indexer', tier: 4, historyAllowlisted: true },
    ]
  }

  private stampIssuer(name: string, trusted: boolean): StampIssuer {
    const privateKey = keccak256(toBytes(`${this.seed}:stamp-issuer:${name}`))
    return { did: stampIssuerDid(privateKey), trusted, privateKey }
  }

  // ---- wallets -----------------------------------------------------------------------------

  private createWallets(): void {
    for (const account of this.demoAccounts) {
      this.wallets.push({ address: account.address, label: `demo:${account.story}`, stamps: [] })
      this.meta.push({ persona: 'demo', refreshMs: this.nowMs - 10 * day })
    }
    for (let index = this.demoAccounts.length; index < this.walletCount; index++) {
      const address = `0x${keccak256(toBytes(`${this.seed}:wallet:${index}`)).slice(-40)}` as Address
      this.wallets.push({ address, stamps: [] })
      this.meta.push({ persona: 'regular', refreshMs: this.nowMs })
    }
  }

  /** Shuffles the generated wallets and deals them out: clusters, fixed cases, the rest. */
  private assignRoles(): void {
    const generated = Array.from({ length: this.walletCount - this.demoAccounts.length }, (_, i) => i + this.demoAccounts.length)
    const pool = this.rng.fork('roles').shuffle(generated)
    const take = (n: number): number[] => {
      if (pool.length < n) throw new RangeError('Not enough wallets for the fixed cases.')
      return pool.splice(0, n)
    }
    const r = this.rng.fork('clusters')
    const { walletsPerCluster, minClusters, size } = worldMix.sybilClusters
    const clusterCount = Math.max(minClusters, Math.round(this.walletCount / walletsPerCluster))
    const sybilIndex = this.demoIndex('sybil')
    const plans: Array<{ kind: 'demo' | 'expired-owner' | 'normal'; members: number[] }> = []
    plans.push({ kind: 'demo', members: [...take(2), sybilIndex] })
    plans.push({ kind: 'expired-owner', members: take(r.int(3, 5)) })
    for (let c = 2; c < clusterCount; c++) plans.push({ kind: 'normal', members: take(r.int(size[0], size[1])) })
    this.clusterPlans = plans
    this.fixedVerificationWallets.push(...take(fixedVerificationCases.length))
    this.fixedAttestationWallets.push(...take(fixedAttestationWalletCount))
    this.ordinary.push(...pool.sort((a, b) => a - b))
    for (const index of [...this.fixedVerificationWallets, ...this.fixedAttestationWallets, ...this.ordinary]) {
      const persona = this.rng.fork(`persona:${index}`).weighted(worldMix.personas)
      const [low, high] = persona === 'dormant' ? worldMix.refreshDays.dormant : worldMix.refreshDays.active
      this.meta[index] = { persona, refreshMs: this.nowMs - this.rng.fork(`refresh:${index}`).float(low, high) * day }
    }
  }

  private demoIndex(story: DemoStory): number {
    return this.demoAccounts.findIndex((a) => a.story === story)
  }

  private wallet(index: number): Wallet {
    return this.wallets[index]!
  }

  private walletMeta(index: number): WalletMeta {
    return this.meta[index]!
  }

  private newHash(r: Random): string {
    return `v0.0.0:${Buffer.from(r.bytes(32)).toString('base64')}`
  }

  private stamp(r: Random, provider: string, issuedMs: number, issuer = this.issuers[0]!.did, hash = this.newHash(r)): Stamp {
    return {
      provider,
      hash,
      issuer,
      issuanceDate: new Date(issuedMs).toISOString(),
      expirationDate: new Date(issuedMs + stampLifetimeSeconds * second).toISOString(),
    }
  }

  private fillDemoAccounts(): void {
    const r = this.rng.fork('demo-stamps')
    const issued = (hoursAgo: number): number => this.nowMs - hoursAgo * hour - r.int(0, 3_599_999)
    const passing = [
      'Google',
      'Discord',
      'Linkedin',
      'Ens',
      'githubContributionActivityGte#30',
      'githubContributionActivityGte#60',
      'githubContributionActivityGte#120',
      'twitterAccountAgeGte#180',
      'twitterAccountAgeGte#365',
      'GitcoinContributorStatistics#totalContributionAmountGte#10',
      'GitcoinContributorStatistics#totalContributionAmountGte#100',
      'ETHDaysActive#50',
      'ETHGasSpent#0.25',
      'ETHnumTransactions#100',
      'ETHScore#50',
      'SnapshotVotesProvider',
      'SelfStakingBronze',
    ]
    this.wallet(this.demoIndex('passing-stamps')).stamps = passing.map((name, i) => this.stamp(r, name, issued(240 - i)))
    this.wallet(this.demoIndex('gov-id-verified')).stamps = ['Google', 'Discord', 'Ens', 'SnapshotVotesProvider'].map((name, i) =>
      this.stamp(r, name, issued(300 - i)),
    )
  }

  private fillClusters(): void {
    const r = this.rng.fork('cluster-stamps')
    const sybilDemo = this.demoIndex('sybil')
    this.clusterPlans.forEach((plan, c) => {
      const id = `sybil-cluster-${c + 1}`
      const kitNames =
        plan.kind === 'demo'
          ? ['CoinbaseDualVerification2', 'BinanceBABT2', 'Google', 'Discord', 'Linkedin', 'githubContributionActivityGte#30']
          : r.shuffle(farmableStamps).slice(0, r.int(worldMix.sybilClusters.sharedCredentials[0], worldMix.sybilClusters.sharedCredentials[1]))
      const credentials = kitNames.map((provider) => ({ provider, hash: this.newHash(r) }))
      const extras = farmableStamps.filter((name) => !kitNames.includes(name))
      const start =
        plan.kind === 'expired-owner' ? this.nowMs - r.float(100, 150) * day : this.nowMs - r.float(6, 60) * day
      // In the expired-owner cluster, followers arrive after the owner's claim has lapsed (expiry <= now - 10 days).
      let followerStart = plan.kind === 'expired-owner' ? this.nowMs - r.float(3, 9) * day : start + 2 * hour
      plan.members.forEach((index, position) => {
        const wallet = this.wallet(index)
        const issuedMs = position === 0 ? start : (followerStart += r.float(0.1, 3) * hour)
        const own = index === sybilDemo ? [] : r.shuffle(extras).slice(0, r.int(0, 2))
        wallet.stamps = [
          ...credentials.map((credential) => this.stamp(r, credential.provider, issuedMs + r.int(0, 59_999), undefined, credential.hash)),
          ...own.map((name) => this.stamp(r, name, issuedMs + r.int(60_000, 600_000))),
        ]
        if (index !== sybilDemo) {
          wallet.label = position === 0 ? `${id} (first claimant)` : id
          this.meta[index] = { persona: 'sybil', refreshMs: issuedMs }
        }
        const scored =
          position === 0 || (plan.kind === 'expired-owner' && position === 1) || (index !== sybilDemo && plan.kind === 'normal' && r.chance(0.5))
        if (scored) {
          const at = position === 0 || plan.kind === 'expired-owner' ? issuedMs + hour : issuedMs + r.float(1, 72) * hour
          this.scoreEvents.push({ scorerId: 1, address: wallet.address, at: new Date(Math.min(at, this.nowMs - hour)).toISOString(), via: 'A1' })
        }
      })
      this.sybilClusters.push({
        id,
        members: plan.members.map((index) => this.wallet(index).address),
        credentials,
        ownerExpired: plan.kind === 'expired-owner',
      })
    })
  }

  private fillPopulation(): void {
    for (const index of [...this.fixedVerificationWallets, ...this.fixedAttestationWallets, ...this.ordinary]) {
      const { persona, refreshMs } = this.walletMeta(index)
      if (persona === 'sybil' || persona === 'demo') continue
      this.wallet(index).stamps = this.personaStamps(this.rng.fork(`stamps:${index}`), persona, refreshMs)
    }
    // Adversarial stamp cases guaranteed at least once: an untrusted issuer, a duplicate provider.
    const [first, second] = this.ordinary.filter((index) => this.wallet(index).stamps.length > 0)
    if (first !== undefined && !this.wallets.some((w) => w.stamps.some((s) => s.issuer === this.issuers[2]!.did))) {
      const stamps = this.wallet(first).stamps
      stamps[stamps.length - 1] = { ...stamps[stamps.length - 1]!, issuer: this.issuers[2]!.did }
    }
    if (second !== undefined && !this.wallets.some(hasDuplicateProvider)) {
      const stamps = this.wallet(second).stamps
      const original = stamps[0]!
      const issuedMs = Date.parse(stamps[stamps.length - 1]!.issuanceDate) + hour
      stamps.push(this.stamp(this.rng.fork('duplicate'), original.provider, Math.min(issuedMs, this.nowMs - hour)))
    }
  }

  private personaStamps(r: Random, persona: Persona, refreshMs: number): Stamp[] {
    const multiplier = worldMix.stampMultiplier[persona]
    const names: string[] = []
    for (const platform of catalogue) {
      for (const group of platform.groups) {
        if (group.ladder) {
          const [firstRung, ...rungs] = group.stamps
          if (!firstRung || !r.chance(Math.min(0.95, firstRung.popularity * multiplier))) continue
          names.push(firstRung.name)
          for (const rung of rungs) {
            if (!r.chance(Math.min(0.9, rung.popularity * (persona === 'power' ? 1.25 : 1)))) break
            names.push(rung.name)
          }
        } else {
          for (const s of group.stamps) if (r.chance(Math.min(0.95, s.popularity * multiplier))) names.push(s.name)
        }
      }
    }
    if (r.chance(retiredStamp.popularity * multiplier)) names.push(retiredStamp.name)
    if (names.length === 0 && persona !== 'newcomer') names.push(r.pick(['Google', 'Discord']))
    const stamps = r.shuffle(names).map((name) => {
      const old = persona !== 'dormant' && r.chance(worldMix.oldStampShare)
      const issuedMs = old ? this.nowMs - r.float(92, 200) * day : refreshMs - r.float(0, 3) * day
      const issuer = r.chance(worldMix.untrustedIssuerShare)
        ? this.issuers[2]!
        : r.chance(worldMix.rotatedIssuerShare)
          ? this.issuers[1]!
          : this.issuers[0]!
      return this.stamp(r, name, Math.round(issuedMs), issuer.did)
    })
    stamps.sort((a, b) => (a.issuanceDate < b.issuanceDate ? -1 : a.issuanceDate > b.issuanceDate ? 1 : 0))
    if (stamps.length > 0 && r.chance(worldMix.duplicateProviderShare)) {
      const original = r.pick(stamps)
      stamps.push(this.stamp(r, original.provider, Math.round(refreshMs + r.float(0.5, 10) * hour)))
    }
    return stamps
  }

  // ---- score events --------------------------------------------------------------------------

  private fillScoreEvents(): void {
    const passing = this.wallet(this.demoIndex('passing-stamps'))
    this.scoreEvents.push({ scorerId: 1, address: passing.address, at: new Date(this.nowMs - 2 * day).toISOString(), via: 'A1' })
    for (const index of [...this.fixedVerificationWallets, ...this.fixedAttestationWallets, ...this.ordinary]) {
      const r = this.rng.fork(`score-events:${index}`)
      if (!r.chance(worldMix.scoreEventShare)) continue
      const from = Math.max(this.walletMeta(index).refreshMs, this.nowMs - 120 * day)
      const count = r.int(1, 3)
      for (let i = 0; i < count; i++) {
        const scorerId = Number(r.weighted({ '1': 0.8, '2': 0.1, '3': 0.05, '4': 0.05 }))
        const via = scorerId === 3 || r.chance(0.15) ? 'C2' : 'A1'
        const at = Math.round(from + r.next() * (this.nowMs - hour - from))
        this.scoreEvents.push({ scorerId, address: this.wallet(index).address, at: new Date(at).toISOString(), via })
      }
    }
  }

  // ---- Human ID ------------------------------------------------------------------------------

  private verification(r: Random, index: number, credential: HumanIdCredential, kind: VerificationKind): Verification {
    const { nowSec } = this
    const sandbox = kind === 'sandbox' || kind === 'sandbox-empty-public-values'
    let issuedAt = nowSec - r.int(86400, 360 * 86400)
    if (kind === 'expired') issuedAt = nowSec - r.int(370 * 86400, 720 * 86400)
    if (kind === 'revoked') issuedAt = nowSec - r.int(30 * 86400, 300 * 86400)
    if (kind === 'legacy-store') issuedAt = nowSec - r.int(730 * 86400, 1100 * 86400)
    const emptyPublicValues = kind === 'sandbox-empty-public-values'
    const noPublicValues = emptyPublicValues || kind === 'legacy-store'
    const source = kind === 'legacy-store' ? 'legacy-store' : kind === 'zk-passport' ? 'zk-passport' : 'hub'
    const circuitId = source === 'legacy-store' ? null : source === 'zk-passport' ? humanIdCircuitIds['zk-passport'] : humanIdCircuitIds[credential]
    const issuer = noPublicValues
      ? null
      : kind === 'wrong-issuer'
        ? untrustedHumanIdIssuer
        : source === 'zk-passport'
          ? humanIdIssuers['zk-passport']
          : humanIdIssuers[credential]
    const revoked = kind === 'revoked'
    return {
      address: this.wallet(index).address,
      credential,
      network: sandbox ? 'base-sepolia' : 'optimism',
      source,
      circuitId,
      actionId: kind === 'custom-action' ? demoCustomActionId : defaultActionIdText,
      issuer,
      nullifier: noPublicValues ? null : bytesToBigInt(r.bytes(31)).toString(),
      emptyPublicValues,
      issuedAt,
      expiresAt: kind === 'legacy-store' || emptyPublicValues ? null : issuedAt + yearSeconds,
      revoked,
      revokedAt: revoked ? issuedAt + r.int(86400, nowSec - issuedAt - 3600) : null,
      kind,
    }
  }

  private fillVerifications(): void {
    const r = this.rng.fork('verifications')
    this.verifications.push(this.verification(r, this.demoIndex('gov-id-verified'), 'gov-id', 'valid'))
    fixedVerificationCases.forEach(([credential, kind], i) => {
      this.verifications.push(this.verification(r, this.fixedVerificationWallets[i]!, credential, kind))
    })
    for (const index of this.ordinary) {
      const persona = this.walletMeta(index).persona as Persona
      const w = this.rng.fork(`verifications:${index}`)
      for (const credential of ['gov-id', 'phone', 'biometrics'] as const) {
        if (!w.chance(worldMix.verifications[credential][persona])) continue
        let kind: VerificationKind = w.weighted(worldMix.verificationKinds)
        if (kind === 'legacy-store' && credential === 'biometrics') kind = 'valid'
        this.verifications.push(this.verification(w, index, credential, kind))
      }
      if (w.chance(worldMix.sandboxShare)) this.verifications.push(this.verification(w, index, w.pick(['gov-id', 'phone'] as const), 'sandbox'))
    }
  }

  private attestation(
    r: Random,
    index: number,
    kind: AttestationKind,
    options: { attester?: string; schema?: string; recipient?: Address; attestationId?: Hex } = {},
  ): AttestationRow {
    const address = this.wallet(index).address
    let attestSec = this.nowSec - r.int(86400, 300 * 86400)
    if (kind === 'expired') attestSec = this.nowSec - r.int(400 * 86400, 700 * 86400)
    if (kind === 'valid-until-now') attestSec = this.nowSec - yearSeconds
    const validUntilSec = kind === 'valid-until-now' ? this.nowSec : attestSec + yearSeconds
    const validUntil: number | string = kind === 'valid-until-zero' ? '0' : r.chance(0.6) ? String(validUntilSec) : validUntilSec
    const schema = options.schema ?? cleanHandsFullSchemaId
    const attester =
      options.attester ??
      (kind === 'wrong-attester' ? getAddress(`0x${keccak256(r.bytes(32)).slice(-40)}`) : cleanHandsAttester)
    return {
      attestationId: options.attestationId ?? `0x${(this.nextAttestationId++).toString(16)}`,
      address,
      fullSchemaId: schema,
      schemaId: schema === cleanHandsFullSchemaId ? cleanHandsSchemaId : schema.slice(schema.lastIndexOf('_') + 1),
      attester,
      isReceiver: kind !== 'not-receiver',
      revoked: kind === 'revoked',
      validUntil,
      attestTimestamp: attestSec * 1000 + r.int(0, 999),
      recipients: [options.recipient ?? address],
      kind,
    }
  }

  private fillAttestations(): void {
    const r = this.rng.fork('attestations')
    const rows = this.attestations
    rows.push(this.attestation(r, this.demoIndex('clean-hands-only'), 'valid'))
    const at = (i: number): number => this.fixedAttestationWallets[i]!
    rows.push(this.attestation(r, at(0), 'valid-attester-case', { attester: cleanHandsAttester.toLowerCase() }))
    rows.push(this.attestation(r, at(1), 'valid-attester-case', { attester: `0x${cleanHandsAttester.slice(2).toUpperCase()}` }))
    rows.push(this.attestation(r, at(2), 'wrong-attester'))
    rows.push(this.attestation(r, at(3), 'wrong-schema', { schema: 'onchain_evm_10_0x80' }))
    rows.push(this.attestation(r, at(4), 'wrong-schema', { schema: 'onchain_evm_10_0x9' }))
    rows.push(this.attestation(r, at(5), 'wrong-chain-schema', { schema: 'onchain_evm_8453_0x8' }))
    rows.push(this.attestation(r, at(6), 'revoked'))
    rows.push(this.attestation(r, at(7), 'expired'))
    rows.push(this.attestation(r, at(8), 'valid-until-now'))
    rows.push(this.attestation(r, at(9), 'valid-until-zero'))
    // The same attestation listed on two pages: the receiver's (valid) and another address's (not-receiver).
    const receiver = this.attestation(r, at(11), 'valid')
    rows.push(this.attestation(r, at(10), 'not-receiver', { recipient: receiver.address, attestationId: receiver.attestationId }))
    const shared = rows[rows.length - 1]!
    rows.push({ ...receiver, validUntil: shared.validUntil, attestTimestamp: shared.attestTimestamp })
    // Renewal: an expired attestation and a newer valid one (valid overall).
    rows.push(this.attestation(r, at(12), 'expired'), this.attestation(r, at(12), 'valid'))
    // Two bad rows and no good one (not valid overall).
    rows.push(this.attestation(r, at(13), 'revoked'), this.attestation(r, at(13), 'wrong-attester'))
    for (const index of this.ordinary) {
      const persona = this.walletMeta(index).persona as Persona
      const w = this.rng.fork(`attestations:${index}`)
      if (!w.chance(worldMix.attestations[persona])) continue
      if (w.chance(worldMix.attestationRenewalShare)) rows.push(this.attestation(w, index, 'expired'))
      rows.push(this.attestation(w, index, 'valid'))
    }
  }

  private cleanHandsSbts(): CleanHandsSbt[] {
    const r = this.rng.fork('clean-hands-sbts')
    const near = (): string => `${r.pick(['alice', 'bob', 'carol', 'dave', 'erin', 'frank'])}-${r.int(100, 999)}.near`
    const aptos = (): string => `0x${Buffer.from(r.bytes(32)).toString('hex')}`
    const sbt = (chain: CleanHandsSbt['chain'], kind: CleanHandsSbt['kind']): CleanHandsSbt => {
      const issuedAt = kind === 'expired' ? this.nowSec - r.int(370 * 86400, 600 * 86400) : this.nowSec - r.int(86400, 300 * 86400)
      return {
        chain,
        address: chain === 'near' ? near() : aptos(),
        actionId: kind === 'custom-action' ? demoCustomActionId : defaultActionIdText,
        circuitId: humanIdCircuitIds['clean-hands'],
        issuedAt,
        expiresAt: issuedAt + yearSeconds,
        revoked: kind === 'revoked',
        kind,
      }
    }
    return [sbt('near', 'valid'), sbt('aptos', 'valid'), sbt('near', 'expired'), sbt('aptos', 'revoked'), sbt('near', 'custom-action')]
  }

  // ---- model scores, stakes, terms -----------------------------------------------------------

  private modelScores(): ModelScore[] {
    const scores: ModelScore[] = []
    const ranges: Record<Persona | 'sybil', readonly [number, number]> = {
      power: [60, 100],
      regular: [25, 85],
      newcomer: [5, 60],
      dormant: [10, 70],
      sybil: [0, 20],
    }
    const demo: Partial<Record<DemoStory, Partial<Record<ModelName, number>>>> = {
      'passing-stamps': { aggregate: 91, ethereum_activity: 88, optimism: 76 },
      'gov-id-verified': { aggregate: 47 },
      'clean-hands-only': { aggregate: -1 },
      sybil: { aggregate: 4, ethereum_activity: 2 },
    }
    this.wallets.forEach((wallet, index) => {
      const { persona } = this.walletMeta(index)
      if (persona === 'demo') {
        const story = this.demoAccounts[index]!.story
        for (const model of modelNames) {
          const score = demo[story]?.[model]
          if (score !== undefined) scores.push({ address: wallet.address, model, score })
        }
        return
      }
      const r = this.rng.fork(`model-scores:${index}`)
      const [low, high] = ranges[persona]
      const share = persona === 'newcomer' ? 0.55 : persona === 'sybil' ? 0.9 : worldMix.modelScores.aggregate
      if (!r.chance(share)) return
      const noData = r.chance(persona === 'newcomer' ? 0.2 : worldMix.modelScores.insufficientData)
      const aggregate = noData ? -1 : r.int(low, high)
      scores.push({ address: wallet.address, model: 'aggregate', score: aggregate })
      for (const model of modelNames.slice(1)) {
        if (!r.chance(persona === 'power' ? 0.5 : worldMix.modelScores.otherModel)) continue
        const score = r.chance(0.15) ? -1 : aggregate < 0 ? r.int(low, high) : Math.max(0, Math.min(100, aggregate + r.int(-15, 15)))
        scores.push({ address: wallet.address, model, score })
      }
    })
    return scores
  }

  /** Block of a stake update: the world's time base on Optimism; plausible heights elsewhere (mainnet 12 s, Arbitrum ~0.4 s). */
  private blockAt(chain: number, timeSec: number): number {
    const elapsed = timeSec - this.genesisTime
    if (chain === optimismChainId) return Math.floor(elapsed / this.blockTimeSeconds)
    if (chain === 42161) return 1_000_000 + Math.floor(elapsed * 2.5)
    return 12_600_000 + Math.floor(elapsed / 12)
  }

  private amount(r: Random, low: number, high: number): string {
    const whole = r.int(low, high)
    return r.chance(0.4) ? `${whole}.${String(r.int(1, 99)).padStart(2, '0')}` : String(whole)
  }

  private stake(r: Random, staker: Address, stakee: Address, chain?: number): Stake {
    const chainId = chain ?? Number(r.weighted({ '1': 0.5, '10': 0.3, '42161': 0.2 }))
    const lockSec = this.nowSec - r.int(5 * 86400, 500 * 86400)
    const unlockSec = lockSec + r.pick([30, 90, 180, 365]) * 86400
    return {
      chain: chainId,
      staker,
      stakee,
      amount: this.amount(r, 5, 2500),
      lock_time: new Date(lockSec * 1000).toISOString(),
      unlock_time: new Date(unlockSec * 1000).toISOString(),
      last_updated_in_block: this.blockAt(chainId, lockSec + r.int(0, 3600)),
    }
  }

  private stakes(): { stakes: Stake[]; roundStakes: RoundStake[] } {
    const stakes: Stake[] = []
    const roundStakes: RoundStake[] = []
    const passing = this.wallet(this.demoIndex('passing-stamps')).address
    const r = this.rng.fork('demo-stakes')
    stakes.push(this.stake(r, passing, passing, optimismChainId))
    const roundStake = (w: Random, address: Address, roundId: string): RoundStake => {
      const self = w.chance(0.8)
      return {
        address,
        roundId,
        stakes: self ? [{ stake: this.amount(w, 1, 500), round: { id: roundId } }] : [],
        xstakeAggregates: !self || w.chance(0.6) ? [{ total: this.amount(w, 1, 1500), round: { id: roundId } }] : [],
      }
    }
    roundStakes.push({
      address: passing,
      roundId: '3',
      stakes: [{ stake: '25', round: { id: '3' } }],
      xstakeAggregates: [{ total: '140.5', round: { id: '3' } }],
    })
    for (const index of this.ordinary) {
      const w = this.rng.fork(`stakes:${index}`)
      const address = this.wallet(index).address
      const persona = this.walletMeta(index).persona
      if (w.chance(persona === 'power' ? worldMix.stakes.selfPower : worldMix.stakes.selfOther)) stakes.push(this.stake(w, address, address))
      if (w.chance(worldMix.stakes.community)) {
        const count = w.int(1, 2)
        for (let i = 0; i < count; i++) {
          const stakee = this.wallet(w.pick(this.ordinary)).address
          if (stakee !== address) stakes.push(this.stake(w, address, stakee))
        }
      }
      if (w.chance(worldMix.stakes.rounds)) {
        const rounds = w.shuffle(['1', '2', '3', '4', '5']).slice(0, w.int(1, 2)).sort()
        for (const roundId of rounds) roundStakes.push(roundStake(w, address, roundId))
      }
    }
    return { stakes, roundStakes }
  }

  private tosAcceptances(): TosAcceptance[] {
    const acceptances: TosAcceptance[] = []
    const r = this.rng.fork('tos')
    const passing = this.wallet(this.demoIndex('passing-stamps')).address
    acceptances.push({ tosType, address: passing, acceptedAt: new Date(this.nowMs - 9 * day).toISOString() })
    for (const index of this.ordinary) {
      if (!r.chance(worldMix.tosShare)) continue
      const acceptedAt = new Date(Math.round(this.nowMs - r.float(1, 200) * day)).toISOString()
      acceptances.push({ tosType, address: this.wallet(index).address, acceptedAt })
    }
    return acceptances
  }
}

/** The verification cases placed on purpose, one wallet each. */
const fixedVerificationCases: ReadonlyArray<readonly [HumanIdCredential, VerificationKind]> = [
  ['phone', 'valid'],
  ['biometrics', 'valid'],
  ['gov-id', 'expired'],
  ['phone', 'expired'],
  ['gov-id', 'revoked'],
  ['biometrics', 'revoked'],
  ['gov-id', 'custom-action'],
  ['phone', 'custom-action'],
  ['gov-id', 'sandbox'],
  ['phone', 'sandbox-empty-public-values'],
  ['gov-id', 'legacy-store'],
  ['phone', 'legacy-store'],
  ['gov-id', 'zk-passport'],
  ['gov-id', 'wrong-issuer'],
]

/** Wallets used by the attestation cases placed on purpose (see `fillAttestations`). */
const fixedAttestationWalletCount = 14

function hasDuplicateProvider(wallet: Wallet): boolean {
  const seen = new Set<string>()
  for (const s of wallet.stamps) {
    if (seen.has(s.provider)) return true
    seen.add(s.provider)
  }
  return false
}
