/**
 * The local chain and the reference server, seeded from the same demo world (1,000 wallets, as
 * `personhood serve --seed demo`), answer alike address by address: for every address with a Human
 * ID verification or a clean-hands attestation row, `verifyCredentials` on the chain at block N
 * equals the server's E4-E6 answers at snapshot N and rule 6 over its E8 rows at block N's time,
 * at the latest block and on both sides of a revocation, an expiry and an issuance.
 */
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAttestationIndexClient } from '../../src/clients/attestation-index/index.js'
import { createHumanIdClient } from '../../src/clients/human-id/index.js'
import { startLocalChain, type LocalChain } from '../../src/devchain/index.js'
import { createServer, type PersonhoodServer } from '../../src/server/index.js'
import { hasValidCleanHandsAttestation } from '../../src/verify/clean-hands.js'
import { isMalformedAttestationRow } from '../../src/schemas/attestation.js'
import { verifyCredentials } from '../../src/verify/credentials/index.js'
import { firstBlockAtOrAfter, timeToBlock } from '../../src/world/chain-time.js'
import { generateWorld } from '../../src/world/generate/index.js'
import type { World } from '../../src/world/types.js'

const worldNow = '2025-06-01T00:00:00.000Z'
/** The clock of both: six hours into the world's day. */
const nowMs = Date.parse(worldNow) + 6 * 3_600_000
const sbtCredentials = ['gov-id', 'phone', 'biometrics'] as const
const baseUrl = 'http://personhood.local'

let world: World
let server: PersonhoodServer
let chain: LocalChain
let addresses: Address[]

const fetchServer = ((input: string | URL | Request, init?: RequestInit) => server.fetch(new Request(input, init))) as typeof fetch
const humanId = () => createHumanIdClient({ baseUrl: `${baseUrl}/human-id`, fetch: fetchServer, retry: false })
const index = () => createAttestationIndexClient({ baseUrl: `${baseUrl}/attestation-index`, fetch: fetchServer, retry: false })

beforeAll(async () => {
  world = generateWorld({ now: worldNow })
  // Every address of the world is read one by one from the open routes: lift their per-client limit.
  server = createServer({ world, now: () => nowMs, openRouteLimit: 1_000_000 })
  chain = await startLocalChain({ world, now: () => nowMs, rpc: false })
  addresses = [...new Set([...world.verifications.map((record) => record.address), ...world.attestations.map((row) => row.address)])]
})

afterAll(async () => {
  await chain?.stop()
})

type Answers = Record<string, Record<(typeof sbtCredentials)[number] | 'clean-hands', 0 | 1>>

/** The server's answers at a block: E4-E6 at snapshot N, and rule 6 over the E8 rows that exist at N's time. */
async function serverAnswers(blockNumber: bigint): Promise<Answers> {
  const time = Math.floor(chain.timeOf(blockNumber).getTime() / 1000)
  const answers: Answers = Object.fromEntries(addresses.map((address) => [address, {}])) as Answers
  for (const credential of sbtCredentials) {
    const scores = await humanId().getVotingStrategyScores({ credential, network: 10, snapshot: blockNumber, addresses })
    for (const address of addresses) answers[address]![credential] = scores[address] === 1 ? 1 : 0
  }
  for (const address of addresses) {
    const rows = await index().getAttestations({ address })
    const existing = rows.filter((row) => !isMalformedAttestationRow(row) && Number(row.attestTimestamp) <= time * 1000)
    answers[address]!['clean-hands'] = hasValidCleanHandsAttestation(existing, { now: time }) ? 1 : 0
  }
  return answers
}

/** The chain's answers at a block, from `verifyCredentials` (clean-hands ids from the server's E8). */
async function chainAnswers(blockNumber: bigint): Promise<Answers> {
  const { results } = await verifyCredentials(chain.client, {
    addresses,
    credentials: [...sbtCredentials, 'clean-hands'],
    blockNumber,
    attestationIndex: index(),
  })
  return Object.fromEntries(
    addresses.map((address) => [address, Object.fromEntries(Object.entries(results[address]!).map(([credential, result]) => [credential, result.valid ? 1 : 0]))]),
  ) as Answers
}

async function expectAgreement(blockNumber: bigint): Promise<Answers> {
  const [fromServer, fromChain] = await Promise.all([serverAnswers(blockNumber), chainAnswers(blockNumber)])
  expect(fromChain).toEqual(fromServer)
  return fromChain
}

describe('the local chain and the reference server on one world', () => {
  it('agree on every address at the latest block, where each credential has holders', async () => {
    const latest = await chain.client.getBlockNumber()
    expect(latest).toBe(BigInt(timeToBlock(Math.floor(nowMs / 1000), world.chain)))
    const answers = await expectAgreement(latest)
    for (const credential of [...sbtCredentials, 'clean-hands'] as const) {
      expect(Object.values(answers).filter((entry) => entry[credential] === 1).length, credential).toBeGreaterThan(3)
    }
    // The cases placed on purpose: a revoked SBT and a revoked attestation count on neither side.
    const revokedSbt = world.verifications.find((record) => record.kind === 'revoked' && record.credential === 'gov-id')!
    expect(answers[revokedSbt.address]!['gov-id']).toBe(0)
    const revokedRow = world.attestations.find((row) => row.kind === 'revoked')!
    expect(answers[revokedRow.address]!['clean-hands']).toBe(0)
  })

  it('agree on both sides of a revocation', async () => {
    const revoked = world.verifications.find((record) => record.kind === 'revoked' && record.credential === 'gov-id')!
    const first = BigInt(firstBlockAtOrAfter(revoked.revokedAt!, world.chain))
    const before = await expectAgreement(first - 1n)
    const after = await expectAgreement(first)
    expect([before[revoked.address]!['gov-id'], after[revoked.address]!['gov-id']]).toEqual([1, 0])
  })

  it('agree on both sides of an SBT expiry', async () => {
    const expired = world.verifications.find((record) => record.kind === 'expired' && record.credential === 'phone')!
    const before = await expectAgreement(BigInt(timeToBlock(expired.expiresAt! - 1, world.chain)))
    const after = await expectAgreement(BigInt(timeToBlock(expired.expiresAt!, world.chain) + 1))
    expect([before[expired.address]!.phone, after[expired.address]!.phone]).toEqual([1, 0])
  })

  it('agree on both sides of an attestation expiry', async () => {
    const expired = world.attestations.find((row) => row.kind === 'expired')!
    const validUntil = Number(expired.validUntil)
    const before = await expectAgreement(BigInt(timeToBlock(validUntil - 1, world.chain)))
    const after = await expectAgreement(BigInt(timeToBlock(validUntil, world.chain) + 1))
    expect([before[expired.address]!['clean-hands'], after[expired.address]!['clean-hands']]).toEqual([1, 0])
  })

  it('agree on both sides of an issuance', async () => {
    const issued = world.verifications.find((record) => record.kind === 'valid' && record.credential === 'biometrics')!
    const first = BigInt(firstBlockAtOrAfter(issued.issuedAt, world.chain))
    const before = await expectAgreement(first - 1n)
    const after = await expectAgreement(first)
    expect([before[issued.address]!.biometrics, after[issued.address]!.biometrics]).toEqual([0, 1])
  })
})
