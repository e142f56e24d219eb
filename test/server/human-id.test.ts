/**
 * Interface E (E1-E7) of the reference server, in-process: the demo world's adversarial records,
 * and hand-made records for answers as of a snapshot block.
 */
import type { Hono } from 'hono'
import { getAddress, recoverMessageAddress, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, test } from 'vitest'
import { blockClocks, estimateBlockTime } from '../../src/chain/block-at-time.js'
import { createHumanIdClient, type HumanIdClient } from '../../src/clients/human-id/index.js'
import { InvalidRequestError } from '../../src/errors/index.js'
import { cleanHandsResultSchema, verificationResultSchema, votingStrategyResponseSchema } from '../../src/schemas/human-id.js'
import { createServer } from '../../src/server/app.js'
import {
  blockToTime,
  cleanHandsCircuitId,
  cleanHandsDigest,
  deriveCleanHandsSignerKey,
  evaluateCleanHands,
  evaluateVerification,
  neverExpires,
  resolveSnapshotTime,
  scoreVotingStrategy,
} from '../../src/server/routes/human-id.js'
import { createEmptyState, stateFromWorld, type ServerState, type Verification } from '../../src/server/state/index.js'
import { demoCustomActionId, generateWorld, type CleanHandsSbt, type World } from '../../src/world/index.js'
import { humanIdCircuitIds, humanIdIssuers, untrustedHumanIdIssuer } from '../../src/world/constants.js'
import { cleanHandsSbtAddresses, cleanHandsSbtRecord, hubVerification } from '../fixtures/human-id-records.js'

const worldNow = '2025-06-01T00:00:00.000Z'
const nowSec = Date.parse(worldNow) / 1000
const base = 'http://personhood.local/human-id'

function createApp(state: ServerState, now = Date.parse(worldNow)): Hono {
  return createServer({ state, now: () => now })
}

async function get(app: Hono, path: string) {
  const response = await app.fetch(new Request(`${base}${path}`))
  const text = await response.text()
  return { status: response.status, text, body: JSON.parse(text) as unknown }
}

// ---------------------------------------------------------------------------------------------
// E1-E3 against the demo world
// ---------------------------------------------------------------------------------------------

describe('E1-E3 individual verifications (demo world)', () => {
  let world: World
  let app: Hono
  /** A verification of this kind whose address holds no other record (so the answer is about it alone). */
  let only: (kind: Verification['kind']) => Verification

  beforeAll(() => {
    world = generateWorld({ now: worldNow, wallets: 60 })
    app = createApp(stateFromWorld(world, { jwtSecret: 'x'.repeat(40) }))
    only = (kind) => {
      const record = world.verifications.find(
        (v) => v.kind === kind && world.verifications.filter((other) => other.address === v.address).length === 1,
      )
      if (!record) throw new Error(`no lone ${kind} verification in the world`)
      return record
    }
  })

  const verify = async (credential: string, network: string, user: string, actionId: string = '123456789') => {
    const { status, body } = await get(app, `/sybil-resistance/${credential}/${network}?user=${user}&action-id=${actionId}`)
    expect(status).toBe(200)
    return verificationResultSchema.parse(body)
  }

  test('a valid gov-id verification answers true with its expiry in Unix seconds', async () => {
    const demo = world.demoAccounts.find((account) => account.story === 'gov-id-verified')!
    const record = world.verifications.find((v) => v.address === demo.address && v.kind === 'valid')!
    expect(await verify('gov-id', 'optimism', getAddress(demo.address))).toEqual({ result: true, expirationDate: record.expiresAt })
  })

  test.each([
    ['expired', false],
    ['revoked', false],
    ['wrong-issuer', false],
    ['sandbox-empty-public-values', false],
  ] as const)('a %s verification answers false', async (kind, expected) => {
    const record = only(kind)
    expect((await verify(record.credential, record.network, record.address)).result).toBe(expected)
  })

  test('a custom-action verification counts for its action id only', async () => {
    const record = only('custom-action')
    expect(await verify(record.credential, 'optimism', record.address)).toEqual({ result: false })
    expect(await verify(record.credential, 'optimism', record.address, demoCustomActionId)).toEqual({
      result: true,
      expirationDate: record.expiresAt,
    })
  })

  test('a verification counts on its own network only', async () => {
    const sandbox = only('sandbox')
    expect((await verify(sandbox.credential, 'base-sepolia', sandbox.address)).result).toBe(true)
    expect((await verify(sandbox.credential, 'optimism', sandbox.address)).result).toBe(false)
    const valid = only('valid')
    expect((await verify(valid.credential, 'optimism', valid.address)).result).toBe(true)
    expect((await verify(valid.credential, 'base-sepolia', valid.address)).result).toBe(false)
  })

  test('a legacy permanent-store entry counts, never expiring, for gov-id and phone', async () => {
    for (const record of world.verifications.filter((v) => v.kind === 'legacy-store')) {
      expect(await verify(record.credential, 'optimism', record.address)).toEqual({ result: true, expirationDate: neverExpires })
    }
  })

  test('a zk-passport SBT satisfies gov-id, not phone', async () => {
    const record = only('zk-passport')
    expect(await verify('gov-id', 'optimism', record.address)).toEqual({ result: true, expirationDate: record.expiresAt })
    expect((await verify('phone', 'optimism', record.address)).result).toBe(false)
  })

  test('action-id is read by the package\'s one rule: decimal digits or 0x hex alike', async () => {
    const valid = only('valid')
    const decimal = await get(app, `/sybil-resistance/${valid.credential}/optimism?user=${valid.address}&action-id=123456789`)
    const hex = await get(app, `/sybil-resistance/${valid.credential}/optimism?user=${valid.address}&action-id=0x75bcd15`)
    expect(decimal.body).toEqual({ result: true, expirationDate: valid.expiresAt })
    expect(hex.body).toEqual(decimal.body)
  })

  test('an address with nothing answers false', async () => {
    const nothing = world.demoAccounts.find((account) => account.story === 'nothing')!
    for (const credential of ['gov-id', 'phone', 'biometrics']) {
      expect(await verify(credential, 'optimism', nothing.address)).toEqual({ result: false })
    }
  })

  test('400 for a missing user or action-id, a malformed address, an unknown network', async () => {
    const user = only('valid').address
    const cases: Array<[string, string]> = [
      [`/sybil-resistance/gov-id/optimism?action-id=123456789`, 'query.user: Field required'],
      [`/sybil-resistance/gov-id/optimism?user=${user}`, 'query.action-id: Field required'],
      [`/sybil-resistance/gov-id/optimism?user=${user.slice(0, 41)}&action-id=123456789`, 'query.user: Invalid address'],
      [`/sybil-resistance/gov-id/optimism?user=${user}&action-id=abc`, 'query.action-id: Expected action-id as decimal digits'],
      [`/sybil-resistance/gov-id/mainnet?user=${user}&action-id=123456789`, 'Unsupported network "mainnet"'],
    ]
    for (const [path, start] of cases) {
      const { status, body } = await get(app, path)
      expect(status, path).toBe(400)
      expect((body as { detail: string }).detail.startsWith(start), `${path}: ${(body as { detail: string }).detail}`).toBe(true)
    }
  })
})

// ---------------------------------------------------------------------------------------------
// Hand-made records: snapshots, revocation times, batches
// ---------------------------------------------------------------------------------------------

const genesisTime = nowSec - 1_000_000
const blockTimeSeconds = 2
const blockAt = (time: number) => (time - genesisTime) / blockTimeSeconds

function hubSbt(address: Address, fields: Partial<Verification> = {}): Verification {
  return hubVerification(nowSec, { address: address.toLowerCase() as Address, nullifier: '1', issuedAt: nowSec - 500_000, expiresAt: nowSec + 1_000_000, ...fields })
}

/** The last block of a network whose time by its clock is at or before `time` (Unix seconds). */
function blockOfNetworkAt(chainId: number, time: number): bigint {
  const clock = blockClocks[chainId]!
  let block = clock.anchor.blockNumber + BigInt(Math.floor((time - Number(clock.anchor.timestamp)) / clock.blockTimeSeconds))
  while (estimateBlockTime(clock, block + 1n).timestamp <= BigInt(time)) block++
  while (estimateBlockTime(clock, block).timestamp > BigInt(time)) block--
  return block
}

/** A random address, checksummed (no key needed: nothing signs for it). */
const wallet = (): Address => getAddress(`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('hex')}`)

describe('E4-E6 voting strategies', () => {
  const expiring = wallet()
  const revoked = wallet()
  const custom = wallet()
  const late = wallet()
  const phone = wallet()
  const replaced = wallet()
  const expiresAt = nowSec - 100_000
  const revokedAt = nowSec - 200_000
  const issuedLate = nowSec - 50_000
  let app: Hono
  let records: Verification[]

  beforeAll(() => {
    const state = createEmptyState({ jwtSecret: 'y'.repeat(40) })
    state.chain = { chainId: 10, genesisTime, blockTimeSeconds }
    records = [
      hubSbt(expiring, { expiresAt, kind: 'expired' }),
      hubSbt(revoked, { revoked: true, revokedAt, kind: 'revoked' }),
      hubSbt(custom, { actionId: '42', kind: 'custom-action' }),
      hubSbt(late, { issuedAt: issuedLate }),
      hubSbt(phone, { credential: 'phone', circuitId: humanIdCircuitIds.phone, issuer: humanIdIssuers.phone }),
      // A valid SBT replaced (same circuit) by a newer one with an untrusted issuer.
      hubSbt(replaced, { issuedAt: nowSec - 600_000 }),
      hubSbt(replaced, { issuedAt: nowSec - 300_000, issuer: untrustedHumanIdIssuer, kind: 'wrong-issuer' }),
    ]
    state.verifications = records
    app = createApp(state)
  })

  const strategy = async (credential: string, query: Record<string, string>) => {
    const { status, body } = await get(app, `/voting-strategies/sybil-resistance/${credential}?${new URLSearchParams(query)}`)
    return { status, body }
  }
  const scores = async (credential: string, addresses: string[], snapshot: string | number, extra: Record<string, string> = {}) => {
    const { status, body } = await strategy(credential, {
      network: '10',
      snapshot: String(snapshot),
      addresses: addresses.join(','),
      'action-id': '123456789',
      ...extra,
    })
    expect(status, JSON.stringify(body)).toBe(200)
    const parsed = votingStrategyResponseSchema.parse(body)
    return Object.fromEntries(parsed.score.map((entry) => [entry.address, entry.score]))
  }

  test('answers as of the snapshot block: valid up to the expiry, 0 after', async () => {
    expect(await scores('gov-id', [expiring], blockAt(expiresAt) - 1)).toEqual({ [expiring]: 1 })
    // The Hub reverts getSBT only when expiry < block.timestamp: at the block whose time is the
    // expiry the SBT still counts, as the verifier reads it on chain.
    expect(await scores('gov-id', [expiring], blockAt(expiresAt))).toEqual({ [expiring]: 1 })
    expect(await scores('gov-id', [expiring], blockAt(expiresAt) + 1)).toEqual({ [expiring]: 0 })
    expect(await scores('gov-id', [expiring], 'latest')).toEqual({ [expiring]: 0 })
  })

  test('a revocation counts from its time on: 1 at a block before it, 0 after', async () => {
    expect(await scores('gov-id', [revoked], blockAt(revokedAt) - 1)).toEqual({ [revoked]: 1 })
    expect(await scores('gov-id', [revoked], blockAt(revokedAt))).toEqual({ [revoked]: 0 })
  })

  test('a verification issued after the snapshot does not count at it', async () => {
    expect(await scores('gov-id', [late], blockAt(issuedLate) - 1)).toEqual({ [late]: 0 })
    expect(await scores('gov-id', [late], blockAt(issuedLate))).toEqual({ [late]: 1 })
  })

  test('a newer SBT replaces the older one of its circuit', async () => {
    expect(await scores('gov-id', [replaced], blockAt(nowSec - 300_000) - 1)).toEqual({ [replaced]: 1 })
    expect(await scores('gov-id', [replaced], 'latest')).toEqual({ [replaced]: 0 })
  })

  test('a custom action id is honoured', async () => {
    expect(await scores('gov-id', [custom], 'latest')).toEqual({ [custom]: 0 })
    expect(await scores('gov-id', [custom], 'latest', { 'action-id': '42' })).toEqual({ [custom]: 1 })
  })

  test('each endpoint checks its own credential', async () => {
    expect(await scores('phone', [phone, custom], 'latest')).toEqual({ [phone]: 1, [custom]: 0 })
    expect(await scores('gov-id', [phone], 'latest')).toEqual({ [phone]: 0 })
    expect(await scores('biometrics', [phone], 'latest')).toEqual({ [phone]: 0 })
  })

  test('chain id 84532 reads base-sepolia; an unknown chain id is a 400 naming the known ones, never Optimism', async () => {
    expect(await scores('phone', [phone], 'latest', { network: '84532' })).toEqual({ [phone]: 0 })
    for (const network of ['56', '11155111', '100']) {
      const { status, body } = await strategy('phone', { network, snapshot: 'latest', addresses: phone, 'action-id': '123456789' })
      expect(status).toBe(400)
      expect(body).toEqual({
        detail: `Unsupported network ${network}: this server answers for chain ids 1 (Ethereum), 10 (Optimism), 137 (Polygon), 8453 (Base), 42161 (Arbitrum One), 84532 (Base Sepolia).`,
      })
    }
  })

  test("a space on Ethereum, Polygon, Base or Arbitrum: the Optimism verification judged at the snapshot block's time by that network's clock", async () => {
    for (const network of [1, 137, 8453, 42161]) {
      const atExpiry = blockOfNetworkAt(network, expiresAt)
      // The block whose time is at (or just before) the expiry still counts; the next is after it.
      expect(await scores('gov-id', [expiring], String(atExpiry), { network: String(network) }), `network ${network}`).toEqual({ [expiring]: 1 })
      expect(await scores('gov-id', [expiring], String(atExpiry + 1n), { network: String(network) }), `network ${network}`).toEqual({ [expiring]: 0 })
      const beforeRevocation = blockOfNetworkAt(network, revokedAt - 1)
      expect(await scores('gov-id', [revoked], String(beforeRevocation), { network: String(network) })).toEqual({ [revoked]: 1 })
      expect(await scores('gov-id', [revoked], 'latest', { network: String(network) })).toEqual({ [revoked]: 0 })
      expect(await scores('phone', [phone], 'latest', { network: String(network) })).toEqual({ [phone]: 1 })
    }
    // The world's Optimism block of the same time answers the same.
    expect(await scores('gov-id', [expiring], blockAt(expiresAt))).toEqual({ [expiring]: 1 })
  })

  test("a block in that network's future is a 400; one the clock's drift allows to exist already is judged at now", async () => {
    const farAhead = blockOfNetworkAt(1, nowSec + 30 * 86_400)
    const { status, body } = await strategy('gov-id', { network: '1', snapshot: String(farAhead), addresses: phone, 'action-id': '123456789' })
    expect(status).toBe(400)
    expect((body as { detail: string }).detail).toMatch(
      new RegExp(`^snapshot block ${farAhead} is in the future: by Ethereum's block clock it comes at 2025-06-30T\\S+ \\(\\S+ at the earliest\\), after now \\(2025-06-01T00:00:00.000Z\\)\\.$`),
    )
    // Base's clock is exact: the block after now is in the future.
    const baseNow = blockOfNetworkAt(8453, nowSec)
    expect(await scores('phone', [phone], String(baseNow), { network: '8453' })).toEqual({ [phone]: 1 })
    expect((await strategy('phone', { network: '8453', snapshot: String(baseNow + 1n), addresses: phone, 'action-id': '123456789' })).status).toBe(400)
    // An hour past now on Ethereum's clock is within its drift (1% of the months to its anchor): judged at now.
    const slightlyAhead = blockOfNetworkAt(1, nowSec + 3_600)
    expect(await scores('gov-id', [phone, expiring], String(slightlyAhead), { network: '1' })).toEqual({ [phone]: 0, [expiring]: 0 })
  })

  test('a block in the future is a 400', async () => {
    const latest = blockAt(nowSec)
    expect((await strategy('gov-id', { network: '10', snapshot: String(latest), addresses: phone, 'action-id': '1' })).status).toBe(200)
    const { status, body } = await strategy('gov-id', { network: '10', snapshot: String(latest + 1), addresses: phone, 'action-id': '1' })
    expect(status).toBe(400)
    expect(body).toEqual({ detail: `snapshot block ${latest + 1} is in the future: the latest block is ${latest}.` })
  })

  test('a malformed address scores 0 and is reported; the others are answered', async () => {
    const { status, body } = await strategy('phone', {
      network: '10',
      snapshot: 'latest',
      addresses: `${phone},0xnotanaddress,${custom}`,
      'action-id': '123456789',
    })
    expect(status).toBe(200)
    expect(body).toEqual({
      score: [
        { address: phone, score: 1 },
        { address: '0xnotanaddress', score: 0 },
        { address: custom, score: 0 },
      ],
      errors: [
        {
          address: '0xnotanaddress',
          error: 'Invalid address: expected 0x followed by 40 hex characters (mixed case must be a valid EIP-55 checksum).',
        },
      ],
    })
  })

  test('addresses are answered as given, once each, in any case', async () => {
    const result = await get(
      app,
      `/voting-strategies/sybil-resistance/phone?network=10&snapshot=latest&action-id=123456789&addresses=${phone},${phone.toLowerCase()},${phone}`,
    )
    expect(result.body).toEqual({
      score: [
        { address: phone, score: 1 },
        { address: phone.toLowerCase(), score: 1 },
      ],
    })
  })

  test('500 addresses in one call, each scored on its own', async () => {
    const many = Array.from({ length: 500 }, (_, i) => (i % 100 === 7 ? phone : wallet()))
    const distinct = [...new Set(many)]
    const result = await scores('phone', many, 'latest')
    expect(Object.keys(result)).toHaveLength(distinct.length)
    for (const address of distinct) expect(result[address]).toBe(address === phone ? 1 : 0)
  })

  test('400 when a parameter is missing or malformed', async () => {
    const full = { network: '10', snapshot: 'latest', addresses: phone, 'action-id': '123456789' }
    for (const key of Object.keys(full) as Array<keyof typeof full>) {
      const { [key]: _, ...rest } = full
      const { status, body } = await strategy('gov-id', rest)
      expect(status, key).toBe(400)
      expect((body as { detail: string }).detail.startsWith(`query.${key}:`)).toBe(true)
    }
    expect((await strategy('gov-id', { ...full, snapshot: 'yesterday' })).status).toBe(400)
  })

  test('evaluateVerification and the time base, directly', () => {
    expect(blockToTime(10n, { genesisTime, blockTimeSeconds })).toBe(genesisTime + 20)
    expect(resolveSnapshotTime('latest', { now: nowSec, base: { genesisTime, blockTimeSeconds } })).toMatchObject({ ok: true, time: nowSec })
    const revokedRecord = records.find((record) => record.address === revoked.toLowerCase())!
    const at = (time: number) => evaluateVerification([revokedRecord], { credential: 'gov-id', network: 'optimism', actionId: 123456789n, at: time })
    expect(at(revokedAt - 1)).toMatchObject({ valid: true, expirationDate: revokedRecord.expiresAt })
    expect(at(revokedAt)).toEqual({ valid: false, reason: 'revoked' })
  })
})

// ---------------------------------------------------------------------------------------------
// E7 clean hands
// ---------------------------------------------------------------------------------------------

describe('E7 clean hands', () => {
  let world: World
  let app: Hono
  const secret = 'z'.repeat(40)
  const signer = privateKeyToAccount(deriveCleanHandsSignerKey(secret)).address

  beforeAll(() => {
    world = generateWorld({ now: worldNow, wallets: 60 })
    app = createApp(stateFromWorld(world, { jwtSecret: secret }))
  })

  const cleanHands = async (address: string, actionId = '123456789') => {
    const { status, body, text } = await get(app, `/attestation/sbts/clean-hands?address=${address}&action-id=${actionId}`)
    expect(status).toBe(200)
    return { result: cleanHandsResultSchema.parse(body), text }
  }
  /** The address of a row of this kind that is the only row on its page. */
  const loneRow = (kind: World['attestations'][number]['kind']) => {
    const row = world.attestations.find((a) => a.kind === kind && world.attestations.filter((b) => b.address === a.address).length === 1)
    if (!row) throw new Error(`no lone ${kind} row`)
    return row
  }

  test('a valid attestation: isUnique with a signature by the server key over (circuitId, actionId, address)', async () => {
    const demo = world.demoAccounts.find((account) => account.story === 'clean-hands-only')!
    const { result, text } = await cleanHands(getAddress(demo.address))
    expect(result.isUnique).toBe(true)
    if (!result.isUnique) return
    expect(text).toContain(`"circuitId":${BigInt(cleanHandsCircuitId).toString()}`)
    expect(typeof result.circuitId).toBe('number')
    const digest = cleanHandsDigest({ circuitId: cleanHandsCircuitId, actionId: 123456789n, address: demo.address })
    expect(await recoverMessageAddress({ message: { raw: digest }, signature: result.signature as Hex })).toBe(signer)
  })

  test.each([
    ['valid-attester-case', true],
    ['wrong-attester', false],
    ['wrong-schema', false],
    ['wrong-chain-schema', false],
    ['revoked', false],
    ['expired', false],
    ['valid-until-now', false],
    ['valid-until-zero', false],
    ['not-receiver', false],
  ] as const)('an attestation of kind %s: isUnique %s', async (kind, expected) => {
    const { result } = await cleanHands(loneRow(kind).address)
    expect(result.isUnique).toBe(expected)
    if (!expected) expect(result).toEqual({ isUnique: false })
  })

  test('both attester spellings of the world pass (lower and upper case)', async () => {
    const rows = world.attestations.filter((a) => a.kind === 'valid-attester-case')
    expect(new Set(rows.map((row) => row.attester))).toEqual(
      new Set(['0xb1f50c6c34c72346b1229e5c80587d0d659556fd', '0xB1F50C6C34C72346B1229E5C80587D0D659556FD']),
    )
    for (const row of rows) expect((await cleanHands(row.address)).result.isUnique).toBe(true)
  })

  test('clean-hands SBTs on NEAR and Aptos: valid ones pass, expired and revoked fail, custom actions need their id', async () => {
    for (const sbt of world.cleanHandsSbts) {
      const defaultAnswer = (await cleanHands(sbt.address)).result.isUnique
      expect(defaultAnswer, `${sbt.kind} ${sbt.address}`).toBe(sbt.kind === 'valid')
      if (sbt.kind === 'custom-action') expect((await cleanHands(sbt.address, sbt.actionId)).result.isUnique).toBe(true)
    }
  })

  test('400 without an address or action-id', async () => {
    expect((await get(app, '/attestation/sbts/clean-hands?action-id=1')).status).toBe(400)
    expect((await get(app, `/attestation/sbts/clean-hands?address=${wallet()}`)).status).toBe(400)
  })
})

// ---------------------------------------------------------------------------------------------
// Contract: the Human ID client against the server
// ---------------------------------------------------------------------------------------------

describe('contract: the Human ID client against the server', () => {
  let world: World
  let client: HumanIdClient

  beforeAll(() => {
    world = generateWorld({ now: worldNow, wallets: 60 })
    const server = createServer({ world, now: () => Date.parse(worldNow) })
    client = createHumanIdClient({
      baseUrl: base,
      fetch: async (input, init) => server.fetch(new Request(input, init)),
      retry: false,
    })
  })

  test('E1-E3 through the client', async () => {
    const demo = world.demoAccounts.find((account) => account.story === 'gov-id-verified')!
    const record = world.verifications.find((v) => v.address === demo.address && v.kind === 'valid')!
    expect(await client.getVerification({ credential: 'gov-id', user: demo.address })).toEqual({ result: true, expirationDate: record.expiresAt })
    expect(await client.getVerification({ credential: 'phone', user: demo.address })).toEqual({ result: false })
  })

  test('E4-E6 through the client: every address answered, custom action honoured', async () => {
    const custom = world.verifications.find((v) => v.kind === 'custom-action' && v.credential === 'gov-id')!
    const demo = world.demoAccounts.find((account) => account.story === 'gov-id-verified')!
    const nothing = world.demoAccounts.find((account) => account.story === 'nothing')!
    const addresses = [getAddress(demo.address), getAddress(custom.address), nothing.address]
    expect(await client.getVotingStrategyScores({ credential: 'gov-id', snapshot: 'latest', addresses })).toEqual({
      [addresses[0]!]: 1,
      [addresses[1]!]: 0,
      [addresses[2]!]: 0,
    })
    const withAction = await client.getVotingStrategyScores({ credential: 'gov-id', snapshot: 'latest', addresses, actionId: demoCustomActionId })
    expect(withAction[addresses[1]!]).toBe(1)
    const block = Math.floor((Date.parse(worldNow) / 1000 - world.chain.genesisTime) / world.chain.blockTimeSeconds)
    expect(await client.getVotingStrategyScores({ credential: 'gov-id', snapshot: BigInt(block), addresses: [demo.address] })).toEqual({
      [demo.address]: 1,
    })
    await expect(client.getVotingStrategyScores({ credential: 'gov-id', snapshot: block + 1, addresses: [demo.address] })).rejects.toBeInstanceOf(
      InvalidRequestError,
    )
  })

  test("E4-E6 through the client for a space on another network (Ethereum, Polygon, Base, Arbitrum): judged at its block's time", async () => {
    const demo = world.demoAccounts.find((account) => account.story === 'gov-id-verified')!
    const record = world.verifications.find((v) => v.address === demo.address && v.kind === 'valid')!
    for (const network of [1, 137, 8453, 42161]) {
      // The last block of that network before the verification was issued, and the next one.
      const before = blockOfNetworkAt(network, record.issuedAt - 1)
      const after = before + 1n
      expect(await client.getVotingStrategyScores({ credential: 'gov-id', network, snapshot: after, addresses: [demo.address] }), `network ${network}`).toEqual({ [demo.address]: 1 })
      expect(await client.getVotingStrategyScores({ credential: 'gov-id', network, snapshot: before, addresses: [demo.address] })).toEqual({ [demo.address]: 0 })
    }
    await expect(client.getVotingStrategyScores({ credential: 'gov-id', network: 56, snapshot: 'latest', addresses: [demo.address] })).rejects.toBeInstanceOf(
      InvalidRequestError,
    )
  })

  test('E7 through the client', async () => {
    const demo = world.demoAccounts.find((account) => account.story === 'clean-hands-only')!
    const answer = await client.getCleanHandsSbt({ address: demo.address })
    expect(answer).toMatchObject({ isUnique: true, signature: expect.stringMatching(/^0x[0-9a-f]{130}$/) })
    const nothing = world.demoAccounts.find((account) => account.story === 'nothing')!
    expect(await client.getCleanHandsSbt({ address: nothing.address })).toEqual({ isUnique: false })
  })
})

describe('E4 reads a record as it is now', () => {
  test('a record edited in place (action id, expiry, issuer, revocation) is judged by its new fields at the next batch', () => {
    const address = '0x00000000000000000000000000000000000000f4' as Address
    const record = hubSbt(address, { issuedAt: 1_700_000_000, expiresAt: 1_900_000_000 })
    const records = [record]
    const batch = () => scoreVotingStrategy(records, { credential: 'gov-id', network: 'optimism', actionId: 123456789n, addresses: [address], at: 1_800_000_000 }).score[0]!.score
    expect(batch()).toBe(1)
    record.actionId = '42'
    expect(batch()).toBe(0)
    record.actionId = '123456789'
    expect(batch()).toBe(1)
    record.expiresAt = 1_799_999_999
    expect(batch()).toBe(0)
    record.expiresAt = 1_900_000_000
    record.issuer = untrustedHumanIdIssuer
    expect(batch()).toBe(0)
    record.issuer = humanIdIssuers['gov-id']
    record.revoked = true
    record.revokedAt = 1_800_000_001
    expect(batch()).toBe(1)
    record.revokedAt = 1_799_999_999
    expect(batch()).toBe(0)
  })
})

describe("E7 clean-hands SBTs on NEAR and Aptos, judged by the verifier's SBT rule", () => {
  const sbt = (chain: CleanHandsSbt['chain'], overrides: Partial<CleanHandsSbt> = {}) => cleanHandsSbtRecord(chain, nowSec, overrides)
  const holds = (record: CleanHandsSbt, actionId = 123456789n) =>
    evaluateCleanHands({ attestations: [], cleanHandsSbts: [record] }, { address: record.address, actionId, now: nowSec }).valid
  /** A gov-id SBT on the Hub (an EVM chain), judged at the same time. */
  const onHub = (fields: Partial<Verification>) =>
    evaluateVerification([hubSbt('0x00000000000000000000000000000000000e7e01', { issuedAt: nowSec - 86_400, ...fields })], {
      credential: 'gov-id',
      network: 'optimism',
      actionId: 123456789n,
      at: nowSec,
    }).valid

  test('an expiry equal to the time asked still counts, on every chain alike; a second earlier does not', () => {
    for (const chain of ['near', 'aptos'] as const) {
      expect(holds(sbt(chain, { expiresAt: nowSec })), chain).toBe(true)
      expect(holds(sbt(chain, { expiresAt: nowSec - 1 })), chain).toBe(false)
    }
    expect(onHub({ expiresAt: nowSec })).toBe(true)
    expect(onHub({ expiresAt: nowSec - 1 })).toBe(false)
  })

  test('a revocation before the time asked makes it invalid; one after it does not (yet)', () => {
    for (const chain of ['near', 'aptos'] as const) {
      expect(holds(sbt(chain, { revoked: true, revokedAt: nowSec - 1 })), chain).toBe(false)
      expect(holds(sbt(chain, { revoked: true, revokedAt: nowSec })), chain).toBe(false)
      expect(holds(sbt(chain, { revoked: true, revokedAt: nowSec + 1 })), chain).toBe(true)
      // Revoked at an unknown time: from its issuance.
      expect(holds(sbt(chain, { revoked: true, revokedAt: null })), chain).toBe(false)
    }
    expect(onHub({ revoked: true, revokedAt: nowSec - 1 })).toBe(false)
    expect(onHub({ revoked: true, revokedAt: nowSec + 1 })).toBe(true)
  })

  test('the action id must be the one asked; an SBT issued after the time asked does not count', () => {
    expect(holds(sbt('near', { actionId: '42' }))).toBe(false)
    expect(holds(sbt('near', { actionId: '42' }), 42n)).toBe(true)
    expect(holds(sbt('aptos', { issuedAt: nowSec + 1 }))).toBe(false)
  })

  test('E7 over HTTP follows the server clock across a revocation', async () => {
    const state = createEmptyState({ jwtSecret: 'w'.repeat(40) })
    state.cleanHandsSbts = [sbt('near', { revoked: true, revokedAt: nowSec + 3_600 })]
    const ask = async (atSeconds: number) =>
      (await get(createApp(state, atSeconds * 1000), `/attestation/sbts/clean-hands?address=${cleanHandsSbtAddresses.near}&action-id=123456789`)).body
    expect(await ask(nowSec)).toMatchObject({ isUnique: true })
    expect(await ask(nowSec + 3_599)).toMatchObject({ isUnique: true })
    expect(await ask(nowSec + 3_600)).toEqual({ isUnique: false })
  })
})
