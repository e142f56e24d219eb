/** The wallets and their stamps: demo accounts, sybil clusters sharing credentials, the persona-driven population. */
import { keccak256, toBytes, type Address } from 'viem'
import { catalogue, farmableStamps, retiredStamp } from '../catalogue.js'
import { stampLifetimeSeconds } from '../constants.js'
import type { Random } from '../random.js'
import type { Stamp, Wallet } from '../types.js'
import { day, demoIndex, hour, second, wallet, walletMeta, type Draft, type Persona } from './draft.js'
import { fixedAttestationWalletCount, fixedVerificationCases } from './human-id.js'
import { worldMix } from './mix.js'

/** The wallets in order: the demo accounts, then the generated ones. */
export function createWallets(d: Draft): void {
  for (const account of d.demoAccounts) {
    d.wallets.push({ address: account.address, label: `demo:${account.story}`, stamps: [] })
    d.meta.push({ persona: 'demo', refreshMs: d.nowMs - 10 * day })
  }
  for (let index = d.demoAccounts.length; index < d.walletCount; index++) {
    const address = `0x${keccak256(toBytes(`${d.seed}:wallet:${index}`)).slice(-40)}` as Address
    d.wallets.push({ address, stamps: [] })
    d.meta.push({ persona: 'regular', refreshMs: d.nowMs })
  }
}

/** Shuffles the generated wallets and deals them out: clusters, fixed cases, the rest. */
export function assignRoles(d: Draft): void {
  const generated = Array.from({ length: d.walletCount - d.demoAccounts.length }, (_, i) => i + d.demoAccounts.length)
  const pool = d.rng.fork('roles').shuffle(generated)
  const take = (n: number): number[] => {
    if (pool.length < n) throw new RangeError('Not enough wallets for the fixed cases.')
    return pool.splice(0, n)
  }
  const r = d.rng.fork('clusters')
  const { walletsPerCluster, minClusters, size } = worldMix.sybilClusters
  const clusterCount = Math.max(minClusters, Math.round(d.walletCount / walletsPerCluster))
  const sybilIndex = demoIndex(d, 'sybil')
  const plans: Array<{ kind: 'demo' | 'expired-owner' | 'normal'; members: number[] }> = []
  plans.push({ kind: 'demo', members: [...take(2), sybilIndex] })
  plans.push({ kind: 'expired-owner', members: take(r.int(3, 5)) })
  for (let c = 2; c < clusterCount; c++) plans.push({ kind: 'normal', members: take(r.int(size[0], size[1])) })
  d.clusterPlans = plans
  d.fixedVerificationWallets.push(...take(fixedVerificationCases.length))
  d.fixedAttestationWallets.push(...take(fixedAttestationWalletCount))
  d.ordinary.push(...pool.sort((a, b) => a - b))
  for (const index of [...d.fixedVerificationWallets, ...d.fixedAttestationWallets, ...d.ordinary]) {
    const persona = d.rng.fork(`persona:${index}`).weighted(worldMix.personas)
    const [low, high] = persona === 'dormant' ? worldMix.refreshDays.dormant : worldMix.refreshDays.active
    d.meta[index] = { persona, refreshMs: d.nowMs - d.rng.fork(`refresh:${index}`).float(low, high) * day }
  }
}

/** A fresh credential hash. */
export function newHash(r: Random): string {
  return `v0.0.0:${Buffer.from(r.bytes(32)).toString('base64')}`
}

/** A stamp of `provider` issued at `issuedMs`, valid for the stamp lifetime. */
export function stamp(d: Draft, r: Random, provider: string, issuedMs: number, issuer = d.issuers[0]!.did, hash = newHash(r)): Stamp {
  return {
    provider,
    hash,
    issuer,
    issuanceDate: new Date(issuedMs).toISOString(),
    expirationDate: new Date(issuedMs + stampLifetimeSeconds * second).toISOString(),
  }
}

/** The stamps of the demo accounts that hold some. */
export function fillDemoAccounts(d: Draft): void {
  const r = d.rng.fork('demo-stamps')
  const issued = (hoursAgo: number): number => d.nowMs - hoursAgo * hour - r.int(0, 3_599_999)
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
  wallet(d, demoIndex(d, 'passing-stamps')).stamps = passing.map((name, i) => stamp(d, r, name, issued(240 - i)))
  wallet(d, demoIndex(d, 'gov-id-verified')).stamps = ['Google', 'Discord', 'Ens', 'SnapshotVotesProvider'].map((name, i) =>
    stamp(d, r, name, issued(300 - i)),
  )
}

/** The sybil clusters: wallets presenting the same credentials, the first one scored first. */
export function fillClusters(d: Draft): void {
  const r = d.rng.fork('cluster-stamps')
  const sybilDemo = demoIndex(d, 'sybil')
  d.clusterPlans.forEach((plan, c) => {
    const id = `sybil-cluster-${c + 1}`
    const kitNames =
      plan.kind === 'demo'
        ? ['CoinbaseDualVerification2', 'BinanceBABT2', 'Google', 'Discord', 'Linkedin', 'githubContributionActivityGte#30']
        : r.shuffle(farmableStamps).slice(0, r.int(worldMix.sybilClusters.sharedCredentials[0], worldMix.sybilClusters.sharedCredentials[1]))
    const credentials = kitNames.map((provider) => ({ provider, hash: newHash(r) }))
    const extras = farmableStamps.filter((name) => !kitNames.includes(name))
    const start =
      plan.kind === 'expired-owner' ? d.nowMs - r.float(100, 150) * day : d.nowMs - r.float(6, 60) * day
    // In the expired-owner cluster, followers arrive after the owner's claim has lapsed (expiry <= now - 10 days).
    let followerStart = plan.kind === 'expired-owner' ? d.nowMs - r.float(3, 9) * day : start + 2 * hour
    plan.members.forEach((index, position) => {
      const member = wallet(d, index)
      const issuedMs = position === 0 ? start : (followerStart += r.float(0.1, 3) * hour)
      const own = index === sybilDemo ? [] : r.shuffle(extras).slice(0, r.int(0, 2))
      member.stamps = [
        ...credentials.map((credential) => stamp(d, r, credential.provider, issuedMs + r.int(0, 59_999), undefined, credential.hash)),
        ...own.map((name) => stamp(d, r, name, issuedMs + r.int(60_000, 600_000))),
      ]
      if (index !== sybilDemo) {
        member.label = position === 0 ? `${id} (first claimant)` : id
        d.meta[index] = { persona: 'sybil', refreshMs: issuedMs }
      }
      const scored =
        position === 0 || (plan.kind === 'expired-owner' && position === 1) || (index !== sybilDemo && plan.kind === 'normal' && r.chance(0.5))
      if (scored) {
        const at = position === 0 || plan.kind === 'expired-owner' ? issuedMs + hour : issuedMs + r.float(1, 72) * hour
        d.scoreEvents.push({ scorerId: 1, address: member.address, at: new Date(Math.min(at, d.nowMs - hour)).toISOString(), via: 'A1' })
      }
    })
    d.sybilClusters.push({
      id,
      members: plan.members.map((index) => wallet(d, index).address),
      credentials,
      ownerExpired: plan.kind === 'expired-owner',
    })
  })
}

/** The stamps of the population, by persona; an untrusted issuer and a duplicate provider at least once. */
export function fillPopulation(d: Draft): void {
  for (const index of [...d.fixedVerificationWallets, ...d.fixedAttestationWallets, ...d.ordinary]) {
    const { persona, refreshMs } = walletMeta(d, index)
    if (persona === 'sybil' || persona === 'demo') continue
    wallet(d, index).stamps = personaStamps(d, d.rng.fork(`stamps:${index}`), persona, refreshMs)
  }
  // Adversarial stamp cases guaranteed at least once: an untrusted issuer, a duplicate provider.
  const [first, second] = d.ordinary.filter((index) => wallet(d, index).stamps.length > 0)
  if (first !== undefined && !d.wallets.some((w) => w.stamps.some((s) => s.issuer === d.issuers[2]!.did))) {
    const stamps = wallet(d, first).stamps
    stamps[stamps.length - 1] = { ...stamps[stamps.length - 1]!, issuer: d.issuers[2]!.did }
  }
  if (second !== undefined && !d.wallets.some(hasDuplicateProvider)) {
    const stamps = wallet(d, second).stamps
    const original = stamps[0]!
    const issuedMs = Date.parse(stamps[stamps.length - 1]!.issuanceDate) + hour
    stamps.push(stamp(d, d.rng.fork('duplicate'), original.provider, Math.min(issuedMs, d.nowMs - hour)))
  }
}

/** The stamps a wallet of `persona` holds, drawn from the catalogue. */
export function personaStamps(d: Draft, r: Random, persona: Persona, refreshMs: number): Stamp[] {
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
    const issuedMs = old ? d.nowMs - r.float(92, 200) * day : refreshMs - r.float(0, 3) * day
    const issuer = r.chance(worldMix.untrustedIssuerShare)
      ? d.issuers[2]!
      : r.chance(worldMix.rotatedIssuerShare)
        ? d.issuers[1]!
        : d.issuers[0]!
    return stamp(d, r, name, Math.round(issuedMs), issuer.did)
  })
  stamps.sort((a, b) => (a.issuanceDate < b.issuanceDate ? -1 : a.issuanceDate > b.issuanceDate ? 1 : 0))
  if (stamps.length > 0 && r.chance(worldMix.duplicateProviderShare)) {
    const original = r.pick(stamps)
    stamps.push(stamp(d, r, original.provider, Math.round(refreshMs + r.float(0.5, 10) * hour)))
  }
  return stamps
}

function hasDuplicateProvider(wallet: Wallet): boolean {
  const seen = new Set<string>()
  for (const s of wallet.stamps) {
    if (seen.has(s.provider)) return true
    seen.add(s.provider)
  }
  return false
}
