import { keccak256, toBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { InvalidParameterError } from '../../errors/index.js'
import { isValidAddress } from '../../utils/address.js'
import { catalogueStamps } from '../catalogue.js'
import {
  cleanHandsAttester,
  cleanHandsFullSchemaId,
  defaultActionIdText,
  humanIdCircuitIds,
  humanIdIssuers,
  untrustedHumanIdIssuer,
} from '../constants.js'
import { demoCustomActionId, generateWorld, worldWalletLimits } from './index.js'
import { isPassingBeforeDedup, weighStampsBeforeDedup } from '../summarize.js'
import type { AttestationKind, AttestationRow, DemoStory, VerificationKind, Wallet, World } from '../types.js'

const now = '2025-06-01T00:00:00.000Z'
const nowMs = Date.parse(now)
const nowSec = nowMs / 1000
const world = generateWorld({ now })
const trustedIssuers = world.stampIssuers.filter((i) => i.trusted).map((i) => i.did)
const defaultScorer = world.scorers[0]!
const weigh = (wallet: Wallet): number => weighStampsBeforeDedup(wallet, defaultScorer, { now, trustedIssuers }) / 1000
const walletOf = (address: string): Wallet => world.wallets.find((w) => w.address === address)!
const demo = (story: DemoStory): Wallet => walletOf(world.demoAccounts.find((a) => a.story === story)!.address)

/** Rule 6 of E, written out independently of the generator. */
function satisfiesRule6(row: AttestationRow): boolean {
  return (
    row.fullSchemaId === cleanHandsFullSchemaId &&
    row.attester.toLowerCase() === cleanHandsAttester.toLowerCase() &&
    row.isReceiver &&
    !row.revoked &&
    Number(row.validUntil) > nowSec
  )
}

/** Every address the world refers to, with where it was found. */
function referencedAddresses(w: World): Array<[string, string]> {
  return [
    ...w.wallets.map((x) => ['wallets', x.address] as [string, string]),
    ...w.verifications.map((x) => ['verifications', x.address] as [string, string]),
    ...w.attestations.flatMap((x) => [['attestations', x.address], ...x.recipients.map((r) => ['recipients', r])] as Array<[string, string]>),
    ...w.modelScores.map((x) => ['modelScores', x.address] as [string, string]),
    ...w.stakes.flatMap((x) => [['stakes', x.staker], ['stakes', x.stakee]] as Array<[string, string]>),
    ...w.roundStakes.map((x) => ['roundStakes', x.address] as [string, string]),
    ...w.scoreEvents.map((x) => ['scoreEvents', x.address] as [string, string]),
    ...w.tosAcceptances.map((x) => ['tosAcceptances', x.address] as [string, string]),
    ...w.sybilClusters.flatMap((x) => x.members.map((m) => ['sybilClusters', m] as [string, string])),
    ...w.demoAccounts.map((x) => ['demoAccounts', x.address] as [string, string]),
  ]
}

describe('generateWorld: determinism and shape', () => {
  test('the same seed and now give a byte-identical JSON', () => {
    expect(JSON.stringify(generateWorld({ now }))).toBe(JSON.stringify(world))
    expect(JSON.stringify(generateWorld({ seed: 'personhood-demo', wallets: 1000, now: new Date(now) }))).toBe(JSON.stringify(world))
  })

  test('another seed or another now gives another world', () => {
    const other = generateWorld({ seed: 'another-dao', now })
    expect(other.wallets[10]!.address).not.toBe(world.wallets[10]!.address)
    expect(other.demoAccounts[0]!.privateKey).not.toBe(world.demoAccounts[0]!.privateKey)
    expect(other.apiKeys[0]!.key).not.toBe(world.apiKeys[0]!.key)
    const later = generateWorld({ now: '2025-07-01T00:00:00.000Z' })
    expect(later.wallets.map((w) => w.address)).toEqual(world.wallets.map((w) => w.address))
    expect(JSON.stringify(later)).not.toBe(JSON.stringify(world))
  })

  test('a JSON round trip gives the same world', () => {
    expect(JSON.parse(JSON.stringify(world))).toStrictEqual(world)
  })

  test('the header: version, seed, now, chain', () => {
    expect(world.version).toBe(1)
    expect(world.seed).toBe('personhood-demo')
    expect(world.now).toBe(now)
    expect(world.chain).toEqual({ chainId: 10, genesisTime: expect.any(Number), blockTimeSeconds: 2 })
    // OP Mainnet's clock: block 105,235,063 (Bedrock) at 1686068903, one block every 2 s.
    expect(world.chain.genesisTime + 105_235_063 * 2).toBe(1_686_068_903)
  })

  test('1,000 wallets, unique, with lowercase valid addresses; every referenced address is lowercase and valid', () => {
    expect(world.wallets).toHaveLength(1000)
    expect(new Set(world.wallets.map((w) => w.address)).size).toBe(1000)
    const bad = referencedAddresses(world).filter(([, a]) => !isValidAddress(a) || a !== a.toLowerCase())
    expect(bad).toEqual([])
  })

  test('every address a record refers to is a wallet of the world', () => {
    const wallets = new Set(world.wallets.map((w) => w.address))
    const missing = referencedAddresses(world).filter(([, a]) => !wallets.has(a as `0x${string}`))
    expect(missing).toEqual([])
  })

  test('every timestamp lies between genesis and now (or is a future expiry)', () => {
    const genesisMs = world.chain.genesisTime * 1000
    for (const wallet of world.wallets)
      for (const s of wallet.stamps) {
        expect(Date.parse(s.issuanceDate)).toBeGreaterThanOrEqual(genesisMs)
        expect(Date.parse(s.issuanceDate)).toBeLessThan(nowMs)
        expect(Date.parse(s.expirationDate) - Date.parse(s.issuanceDate)).toBe(90 * 86400 * 1000)
      }
    for (const v of world.verifications) {
      expect(v.issuedAt).toBeGreaterThanOrEqual(world.chain.genesisTime)
      expect(v.issuedAt).toBeLessThan(nowSec)
    }
    for (const a of world.attestations) {
      expect(a.attestTimestamp).toBeGreaterThanOrEqual(genesisMs)
      expect(a.attestTimestamp).toBeLessThan(nowMs)
    }
    for (const e of world.scoreEvents) expect(Date.parse(e.at)).toBeLessThan(nowMs)
  })

  test.each([
    [{ seed: '', now }, 'seed'],
    [{ wallets: worldWalletLimits.min - 1, now }, 'wallets'],
    [{ wallets: 1000.5, now }, 'wallets'],
    [{ now: 'yesterday' }, 'now'],
  ])('rejects bad parameters (%o)', (parameters, name) => {
    expect(() => generateWorld(parameters)).toThrow(InvalidParameterError)
    try {
      generateWorld(parameters)
    } catch (error) {
      expect((error as InvalidParameterError).parameter).toBe(name)
    }
  })

  test('a bad wallet count says what is allowed', () => {
    expect(() => generateWorld({ wallets: 10, now })).toThrowErrorMatchingInlineSnapshot(`
      [InvalidParameterError: Parameter "wallets" is invalid.

      Details: The number of wallets must be an integer from 50 to 100000, got 10.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0]
    `)
  })

  test('the smallest world still holds every case', () => {
    const small = generateWorld({ wallets: worldWalletLimits.min, now })
    expect(small.wallets).toHaveLength(worldWalletLimits.min)
    expect(new Set(small.verifications.map((v) => v.kind)).size).toBe(9)
    expect(new Set(small.attestations.map((a) => a.kind)).size).toBe(10)
    expect(small.sybilClusters.length).toBeGreaterThanOrEqual(3)
  })
})

describe('generateWorld: stamps and scorers', () => {
  test('stamp metadata: unique stamp names, each weighed by the default scorer with a decimal string', () => {
    const names = world.stampProviders.flatMap((p) => p.groups.flatMap((g) => g.stamps.map((s) => s.name)))
    expect(new Set(names).size).toBe(names.length)
    expect(names.length).toBeGreaterThanOrEqual(30)
    for (const name of names) expect(defaultScorer.weights[name]).toMatch(/^\d+\.\d+$/)
    expect(world.stampProviders.map((p) => p.id)).toEqual(expect.arrayContaining(['Google', 'Discord', 'Github', 'Holonym', 'Binance', 'Coinbase']))
  })

  test('scorers: unique ids, threshold "20" by default, an alternate scorer with changed and dropped weights', () => {
    expect(new Set(world.scorers.map((s) => s.id)).size).toBe(world.scorers.length)
    expect(defaultScorer).toMatchObject({ type: 'unique-humanity', threshold: '20' })
    expect(world.scorers.some((s) => s.type === 'binary')).toBe(true)
    const alternate = world.scorers.find((s) => s.name.includes('2025'))!
    expect(alternate.weights.Lens).toBeUndefined()
    expect(alternate.weights.Ens).not.toBe(defaultScorer.weights.Ens)
  })

  test('API keys: deterministic, a tier-1 key without history, a tier-3 key with history', () => {
    expect(new Set(world.apiKeys.map((k) => k.key)).size).toBe(world.apiKeys.length)
    expect(world.apiKeys).toContainEqual(expect.objectContaining({ tier: 1, historyAllowlisted: false }))
    expect(world.apiKeys).toContainEqual(expect.objectContaining({ tier: 3, historyAllowlisted: true }))
    for (const k of world.apiKeys) expect(k.key).toMatch(/^[0-9a-f]{8}\.[0-9a-f]{32}$/)
  })

  test('most wallets hold 1-8 stamps, some many more', () => {
    const counts = world.wallets.map((w) => w.stamps.length)
    expect(counts.filter((n) => n >= 1 && n <= 8).length).toBeGreaterThan(500)
    expect(counts.filter((n) => n > 12).length).toBeGreaterThan(20)
  })

  test('between 15% and 30% of wallets pass the default scorer before dedup', () => {
    const passing = world.wallets.filter((w) => isPassingBeforeDedup(w, defaultScorer, { now, trustedIssuers })).length
    expect(passing / world.wallets.length).toBeGreaterThanOrEqual(0.15)
    expect(passing / world.wallets.length).toBeLessThanOrEqual(0.3)
  })

  test.each(['another-dao', 'grants-round-7'])('the passing ratio also holds for seed %s', (seed) => {
    const other = generateWorld({ seed, now })
    const trusted = other.stampIssuers.filter((i) => i.trusted).map((i) => i.did)
    const passing = other.wallets.filter((w) => isPassingBeforeDedup(w, other.scorers[0]!, { now, trustedIssuers: trusted })).length
    expect(passing / other.wallets.length).toBeGreaterThanOrEqual(0.15)
    expect(passing / other.wallets.length).toBeLessThanOrEqual(0.3)
  })

  test('hashes are versioned identifiers; a shared hash always has one provider and lives in a sybil cluster', () => {
    const holders = new Map<string, { providers: Set<string>; wallets: Set<string> }>()
    for (const w of world.wallets)
      for (const s of w.stamps) {
        expect(s.hash).toMatch(/^v0\.0\.0:[A-Za-z0-9+/]{43}=$/)
        const entry = holders.get(s.hash) ?? { providers: new Set(), wallets: new Set() }
        entry.providers.add(s.provider)
        entry.wallets.add(w.address)
        holders.set(s.hash, entry)
      }
    const shared = [...holders.entries()].filter(([, e]) => e.wallets.size > 1)
    expect(shared.length).toBeGreaterThanOrEqual(20)
    const clustered = new Set(world.sybilClusters.flatMap((c) => c.credentials.map((x) => x.hash)))
    for (const [hash, entry] of shared) {
      expect(entry.providers.size).toBe(1)
      expect(clustered.has(hash)).toBe(true)
    }
  })

  test('expired stamps, untrusted-issuer stamps, duplicate providers and unweighted stamps are all present', () => {
    const stamps = world.wallets.flatMap((w) => w.stamps)
    expect(stamps.filter((s) => Date.parse(s.expirationDate) < nowMs).length).toBeGreaterThan(100)
    expect(stamps.filter((s) => !trustedIssuers.includes(s.issuer)).length).toBeGreaterThan(0)
    expect(stamps.filter((s) => defaultScorer.weights[s.provider] === undefined).length).toBeGreaterThan(0)
    const duplicates = world.wallets.filter((w) => new Set(w.stamps.map((s) => s.provider)).size < w.stamps.length)
    expect(duplicates.length).toBeGreaterThan(0)
    const known = new Set([...catalogueStamps.map((s) => s.name), 'Poh'])
    expect(stamps.filter((s) => !known.has(s.provider))).toEqual([])
  })

  test('score events are sorted, name known scorers and put each first claimant before its followers', () => {
    const times = world.scoreEvents.map((e) => e.at)
    expect(times).toEqual([...times].sort())
    const ids = new Set(world.scorers.map((s) => s.id))
    for (const e of world.scoreEvents) expect(ids.has(e.scorerId)).toBe(true)
    for (const cluster of world.sybilClusters) {
      const first = (address: string): string | undefined => world.scoreEvents.find((e) => e.address === address && e.scorerId === 1)?.at
      const ownerAt = first(cluster.members[0]!)
      expect(ownerAt).toBeDefined()
      for (const member of cluster.members.slice(1)) {
        const at = first(member)
        if (at !== undefined) expect(at > ownerAt!).toBe(true)
      }
    }
  })

  test('in the expired-owner cluster, the owner\'s claim lapses before the next member claims', () => {
    const cluster = world.sybilClusters.find((c) => c.ownerExpired)!
    expect(cluster).toBeDefined()
    const owner = walletOf(cluster.members[0]!)
    const ownerExpiry = Math.max(...owner.stamps.map((s) => Date.parse(s.expirationDate)))
    expect(ownerExpiry).toBeLessThan(nowMs)
    const next = world.scoreEvents.find((e) => e.address === cluster.members[1] && e.scorerId === 1)!
    expect(Date.parse(next.at)).toBeGreaterThan(ownerExpiry)
  })
})

describe('generateWorld: Human ID verifications', () => {
  test('every kind is present at least once', () => {
    const kinds: VerificationKind[] = [
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
    for (const kind of kinds) expect(world.verifications.some((v) => v.kind === kind), kind).toBe(true)
    for (const credential of ['gov-id', 'phone', 'biometrics'] as const)
      expect(world.verifications.some((v) => v.credential === credential && v.kind === 'valid')).toBe(true)
  })

  test('each record agrees with its kind', () => {
    const knownIssuers = new Set<string>(Object.values(humanIdIssuers))
    for (const v of world.verifications) {
      const sandbox = v.kind === 'sandbox' || v.kind === 'sandbox-empty-public-values'
      expect(v.network).toBe(sandbox ? 'base-sepolia' : 'optimism')
      expect(v.actionId).toBe(v.kind === 'custom-action' ? demoCustomActionId : defaultActionIdText)
      expect(v.revoked).toBe(v.kind === 'revoked')
      expect(v.revokedAt !== null).toBe(v.revoked)
      if (v.revokedAt !== null) expect(v.revokedAt).toBeLessThan(nowSec)
      if (v.kind === 'expired') expect(v.expiresAt!).toBeLessThan(nowSec)
      else if (v.expiresAt !== null) expect(v.expiresAt).toBeGreaterThan(nowSec)
      if (v.expiresAt !== null) expect(v.expiresAt - v.issuedAt).toBe(365 * 86400)
      switch (v.kind) {
        case 'legacy-store':
          expect(v).toMatchObject({ source: 'legacy-store', circuitId: null, issuer: null, nullifier: null, expiresAt: null })
          expect(v.credential).not.toBe('biometrics')
          break
        case 'sandbox-empty-public-values':
          expect(v).toMatchObject({ emptyPublicValues: true, issuer: null, nullifier: null, expiresAt: null })
          break
        case 'zk-passport':
          expect(v).toMatchObject({
            credential: 'gov-id',
            source: 'zk-passport',
            circuitId: humanIdCircuitIds['zk-passport'],
            issuer: humanIdIssuers['zk-passport'],
          })
          break
        case 'wrong-issuer':
          expect(v.issuer).toBe(untrustedHumanIdIssuer)
          expect(knownIssuers.has(v.issuer!)).toBe(false)
          break
        default:
          expect(v).toMatchObject({ source: 'hub', circuitId: humanIdCircuitIds[v.credential], issuer: humanIdIssuers[v.credential] })
          expect(v.nullifier).toMatch(/^\d+$/)
      }
    }
  })

  test('an address holds at most one SBT per network and circuit', () => {
    const keys = world.verifications.filter((v) => v.source !== 'legacy-store').map((v) => `${v.address}/${v.network}/${v.circuitId}`)
    expect(new Set(keys).size).toBe(keys.length)
  })

  test('the untrusted issuer constant is what it says', () => {
    expect(untrustedHumanIdIssuer).toBe(keccak256(toBytes('personhood:untrusted-issuer')))
  })
})

describe('generateWorld: clean-hands attestations', () => {
  test('every adversarial kind is present, with both wrong schemas', () => {
    const kinds: AttestationKind[] = [
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
    for (const kind of kinds) expect(world.attestations.some((a) => a.kind === kind), kind).toBe(true)
    const schemas = new Set(world.attestations.map((a) => a.fullSchemaId))
    for (const schema of ['onchain_evm_10_0x8', 'onchain_evm_10_0x80', 'onchain_evm_10_0x9', 'onchain_evm_8453_0x8']) expect(schemas.has(schema)).toBe(true)
  })

  test('rule 6 of E holds exactly for the rows of kind valid and valid-attester-case', () => {
    for (const row of world.attestations)
      expect(satisfiesRule6(row), `${row.kind} ${row.attestationId}`).toBe(row.kind === 'valid' || row.kind === 'valid-attester-case')
  })

  test('validUntil comes as numbers, strings and "0"; the attester in several letter cases', () => {
    expect(world.attestations.some((a) => typeof a.validUntil === 'number')).toBe(true)
    expect(world.attestations.some((a) => typeof a.validUntil === 'string' && a.validUntil !== '0')).toBe(true)
    expect(world.attestations.some((a) => a.validUntil === '0')).toBe(true)
    const cases = new Set(world.attestations.filter((a) => a.kind !== 'wrong-attester').map((a) => a.attester))
    expect(cases.size).toBeGreaterThanOrEqual(3)
  })

  test('rows of one attestation agree on every on-chain field', () => {
    const byId = new Map<string, AttestationRow[]>()
    for (const row of world.attestations) byId.set(row.attestationId, [...(byId.get(row.attestationId) ?? []), row])
    const pick = ({ fullSchemaId, schemaId, attester, revoked, validUntil, attestTimestamp, recipients }: AttestationRow) => ({
      fullSchemaId,
      schemaId,
      attester,
      revoked,
      validUntil,
      attestTimestamp,
      recipients,
    })
    const multi = [...byId.values()].filter((rows) => rows.length > 1)
    expect(multi.length).toBeGreaterThan(0)
    for (const rows of multi) for (const row of rows) expect(pick(row)).toEqual(pick(rows[0]!))
    for (const id of byId.keys()) expect(id).toMatch(/^0x[0-9a-f]+$/)
  })

  test('non-EVM clean-hands SBTs cover valid, expired, revoked and custom-action', () => {
    expect(new Set(world.cleanHandsSbts.map((s) => s.kind))).toEqual(new Set(['valid', 'expired', 'revoked', 'custom-action']))
  })
})

describe('generateWorld: model scores and stakes', () => {
  test('model scores are integers from -1 to 100, one per address and model, with -1s and every model', () => {
    for (const s of world.modelScores) {
      expect(Number.isInteger(s.score)).toBe(true)
      expect(s.score).toBeGreaterThanOrEqual(-1)
      expect(s.score).toBeLessThanOrEqual(100)
    }
    const keys = world.modelScores.map((s) => `${s.address}/${s.model}`)
    expect(new Set(keys).size).toBe(keys.length)
    expect(world.modelScores.some((s) => s.score === -1)).toBe(true)
    expect(new Set(world.modelScores.map((s) => s.model)).size).toBe(8)
    expect(new Set(world.modelScores.map((s) => s.address)).size).toBeLessThan(world.wallets.length)
  })

  test('stakes: self and community stakes in the D shape; v1 rounds in the C7 shape', () => {
    expect(world.stakes.some((s) => s.staker === s.stakee)).toBe(true)
    expect(world.stakes.some((s) => s.staker !== s.stakee)).toBe(true)
    for (const s of world.stakes) {
      expect(s.amount).toMatch(/^\d+(\.\d+)?$/)
      expect(Date.parse(s.unlock_time)).toBeGreaterThan(Date.parse(s.lock_time))
      expect(Number.isInteger(s.last_updated_in_block)).toBe(true)
    }
    for (const r of world.roundStakes) {
      expect(r.stakes.length + r.xstakeAggregates.length).toBeGreaterThan(0)
      for (const s of r.stakes) expect(s.round.id).toBe(r.roundId)
      for (const x of r.xstakeAggregates) expect(x.round.id).toBe(r.roundId)
    }
  })
})

describe('generateWorld: demo accounts', () => {
  test('five accounts whose private keys sign for their addresses, each a labelled wallet', () => {
    expect(world.demoAccounts.map((a) => a.story)).toEqual(['passing-stamps', 'gov-id-verified', 'clean-hands-only', 'sybil', 'nothing'])
    for (const account of world.demoAccounts) {
      expect(privateKeyToAccount(account.privateKey).address.toLowerCase()).toBe(account.address)
      expect(walletOf(account.address).label).toBe(`demo:${account.story}`)
    }
  })

  test('passing-stamps passes with unique, unexpired stamps and has a past score', () => {
    const wallet = demo('passing-stamps')
    expect(weigh(wallet)).toBeGreaterThanOrEqual(20)
    const clustered = new Set(world.sybilClusters.flatMap((c) => c.credentials.map((x) => x.hash)))
    expect(wallet.stamps.filter((s) => clustered.has(s.hash))).toEqual([])
    expect(world.scoreEvents.some((e) => e.address === wallet.address && e.scorerId === 1)).toBe(true)
  })

  test('gov-id-verified fails on stamps but holds a valid gov-id SBT for the default action', () => {
    const wallet = demo('gov-id-verified')
    expect(weigh(wallet)).toBeLessThan(20)
    expect(world.verifications.filter((v) => v.address === wallet.address)).toEqual([
      expect.objectContaining({ credential: 'gov-id', network: 'optimism', kind: 'valid', actionId: defaultActionIdText }),
    ])
  })

  test('clean-hands-only has nothing but a valid clean-hands attestation', () => {
    const wallet = demo('clean-hands-only')
    expect(wallet.stamps).toEqual([])
    expect(world.verifications.filter((v) => v.address === wallet.address)).toEqual([])
    const rows = world.attestations.filter((a) => a.address === wallet.address)
    expect(rows.filter(satisfiesRule6)).toHaveLength(1)
  })

  test('sybil weighs above 20, but every stamp was claimed first by an unexpired, earlier-scored wallet', () => {
    const wallet = demo('sybil')
    expect(weigh(wallet)).toBeGreaterThanOrEqual(20)
    const cluster = world.sybilClusters.find((c) => c.members.includes(wallet.address))!
    expect(cluster.ownerExpired).toBe(false)
    expect(cluster.members[0]).not.toBe(wallet.address)
    const owner = walletOf(cluster.members[0]!)
    const ownerScoredAt = world.scoreEvents.find((e) => e.address === owner.address && e.scorerId === 1)!.at
    for (const stamp of wallet.stamps) {
      const claimed = owner.stamps.find((s) => s.hash === stamp.hash)!
      expect(claimed).toBeDefined()
      expect(Date.parse(claimed.expirationDate)).toBeGreaterThan(nowMs)
      expect(claimed.issuanceDate < ownerScoredAt).toBe(true)
    }
    expect(world.scoreEvents.some((e) => e.address === wallet.address)).toBe(false)
  })

  test('nothing has nothing anywhere', () => {
    const { address } = demo('nothing')
    const mentions = referencedAddresses(world).filter(([where, a]) => a === address && where !== 'wallets' && where !== 'demoAccounts')
    expect(mentions).toEqual([])
    expect(demo('nothing').stamps).toEqual([])
  })
})

describe('world constants', () => {
  test('the published issuer hex strings are the chain readers\' issuer integers', async () => {
    const { optimismNetwork } = await import('../../chain/constants.js')
    const { humanIdIssuers } = await import('../constants.js')
    for (const [credential, hex] of Object.entries(humanIdIssuers)) {
      expect(BigInt(hex)).toBe(optimismNetwork.issuers[credential as keyof typeof optimismNetwork.issuers])
    }
  })
})
