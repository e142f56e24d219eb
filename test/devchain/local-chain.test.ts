/**
 * `startLocalChain` and `planLocalChain`: what is written in which block, a chain that follows the
 * clock, refuses writes, serves JSON-RPC over HTTP, and stands in for the Base Sepolia sandbox.
 */
import { createPublicClient, http, type Address } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { createHumanIdClient } from '../../src/clients/human-id/index.js'
import { baseSepoliaNetwork, optimismNetwork } from '../../src/chain/constants.js'
import { startLocalChain, planLocalChain, type LocalChain } from '../../src/devchain/index.js'
import { InvalidParameterError, LocalChainError } from '../../src/errors/index.js'
import { createServer } from '../../src/server/index.js'
import { verifyCredentials } from '../../src/verify/credentials/index.js'
import { firstBlockAtOrAfter } from '../../src/world/chain-time.js'
import { generateWorld } from '../../src/world/generate/index.js'
import type { AttestationRow, Verification, World } from '../../src/world/types.js'

const worldNow = '2025-06-01T00:00:00.000Z'
const nowSec = Date.parse(worldNow) / 1000
const small = generateWorld({ now: worldNow, wallets: 60 })
const chain = { chainId: 10, genesisTime: nowSec - 1_000_000, blockTimeSeconds: 2 }
const subject = '0x00000000000000000000000000000000000000a1' as Address

const running: LocalChain[] = []
afterEach(async () => {
  for (const entry of running.splice(0)) await entry.stop()
})
async function start(...parameters: Parameters<typeof startLocalChain>) {
  const started = await startLocalChain(...parameters)
  running.push(started)
  return started
}

function sbt(overrides: Partial<Verification>): Verification {
  return {
    address: subject,
    credential: 'gov-id',
    network: 'optimism',
    source: 'hub',
    circuitId: optimismNetwork.circuitIds['gov-id'],
    actionId: '123456789',
    issuer: '0x03fae82f38bf01d9799d57fdda64fad4ac44e4c2c2f16c5bf8e1873d0a3e1993',
    nullifier: '1',
    emptyPublicValues: false,
    issuedAt: nowSec - 500_000,
    expiresAt: nowSec + 500_000,
    revoked: false,
    revokedAt: null,
    kind: 'valid',
    ...overrides,
  }
}

function row(overrides: Partial<AttestationRow>): AttestationRow {
  return {
    attestationId: '0x1a0',
    address: subject,
    fullSchemaId: 'onchain_evm_10_0x8',
    schemaId: '0x8',
    attester: optimismNetwork.cleanHands.attester,
    isReceiver: true,
    revoked: false,
    validUntil: nowSec + 100_000,
    attestTimestamp: (nowSec - 100_001) * 1000 + 500,
    recipients: [subject],
    kind: 'valid',
    ...overrides,
  }
}

describe('planLocalChain', () => {
  it("Passport's pushes: the decoder's units of a score with exactly 4 decimals, a revocation clears it; any other score is refused, naming the push", () => {
    const push = { address: '0x00000000000000000000000000000000000000aa' as Address, score: '23.4170', pushedAt: chain.genesisTime + 101, expiresAt: chain.genesisTime + 101 + 90 * 86_400, revokedAt: chain.genesisTime + 201 }
    const writes = planLocalChain({ chain, verifications: [], attestations: [], onchainPassports: [push] }).blocks.flatMap((block) => block.writes)
    expect(writes.map((write) => write.kind)).toEqual(['set-passport-score', 'revoke-passport-score'])
    expect(writes[0]).toMatchObject({ score: 234_170n, time: BigInt(push.pushedAt), expirationTime: BigInt(push.expiresAt) })
    for (const score of ['23.417', '23.41700', '-1.0000', 'abc', '429496.7296']) {
      expect(() => planLocalChain({ chain, verifications: [], attestations: [], onchainPassports: [{ ...push, score }] }), score).toThrow(InvalidParameterError)
    }
  })

  it('writes each record in the first block at or after its time, with the Hub public values', () => {
    const record = sbt({ issuedAt: chain.genesisTime + 101 })
    const { blocks } = planLocalChain({ chain, verifications: [record], attestations: [] })
    expect(blocks).toEqual([
      {
        blockNumber: 51n,
        timestamp: BigInt(chain.genesisTime + 102),
        writes: [
          {
            kind: 'set-sbt',
            to: optimismNetwork.contracts.hub,
            subject,
            circuitId: record.circuitId,
            expiry: BigInt(record.expiresAt!),
            publicValues: [BigInt(record.expiresAt!), BigInt(subject), 123456789n, 1n, BigInt(record.issuer!)],
          },
        ],
      },
    ])
  })

  it('revokes an SBT when its revocation is seen, unless a newer SBT of the circuit replaced it first', () => {
    const revokedLater = sbt({ issuedAt: nowSec - 300, revoked: true, revokedAt: nowSec - 100 })
    const replacedFirst = [sbt({ issuedAt: nowSec - 300, revoked: true, revokedAt: nowSec - 100 }), sbt({ issuedAt: nowSec - 200 })]
    const kinds = (verifications: Verification[]) =>
      planLocalChain({ chain, verifications, attestations: [] }).blocks.flatMap((block) => block.writes.map((write) => `${block.blockNumber}:${write.kind}`))
    const block = (time: number) => firstBlockAtOrAfter(time, chain)
    expect(kinds([revokedLater])).toEqual([`${block(nowSec - 300)}:set-sbt`, `${block(nowSec - 100)}:revoke-sbt`])
    expect(kinds(replacedFirst)).toEqual([`${block(nowSec - 300)}:set-sbt`, `${block(nowSec - 200)}:set-sbt`])
  })

  it('writes one attestation per id, revokes a revoked one in the block that creates it, and skips other chains', () => {
    const rows = [
      row({ revoked: true }),
      row({ attestationId: '0x1a1', fullSchemaId: 'onchain_evm_8453_0x8' }),
      row({ attestationId: '0x1a2', address: '0x00000000000000000000000000000000000000b2', isReceiver: false, attester: optimismNetwork.cleanHands.attester.toLowerCase() }),
      row({ attestationId: '0x1a2', validUntil: String(nowSec + 100_000) }),
    ]
    const { blocks } = planLocalChain({ chain, verifications: [], attestations: rows })
    expect(blocks).toHaveLength(1)
    expect(blocks[0]!.blockNumber).toBe(BigInt(firstBlockAtOrAfter(nowSec - 100_000, chain)))
    expect(blocks[0]!.writes.map((write) => [write.kind, 'attestationId' in write ? write.attestationId : undefined])).toEqual([
      ['attest', 0x1a0n],
      ['revoke-attestation', 0x1a0n],
      ['attest', 0x1a2n],
    ])
  })

  it('refuses a world it cannot write', () => {
    const early = () => planLocalChain({ chain, verifications: [sbt({ issuedAt: chain.genesisTime })], attestations: [] })
    expect(early).toThrow(InvalidParameterError)
    expect(early).toThrow(/not after the chain's genesis/)
    const disagree = () => planLocalChain({ chain, verifications: [], attestations: [row({}), row({ address: subject, validUntil: nowSec + 5 })] })
    expect(disagree).toThrow(/rows of attestation 0x1a0 disagree/)
    const badAction = () => planLocalChain({ chain, verifications: [sbt({ actionId: 'any' })], attestations: [] })
    expect(badAction).toThrow(/action id "any"/)
  })
})

describe('startLocalChain', () => {
  it('follows the clock: the latest block is the block of now, with what the world held by then', async () => {
    const record = sbt({ issuedAt: nowSec - 3_600 })
    const world = { chain, verifications: [record], attestations: [] }
    let now = (nowSec - 7_200) * 1000
    const local = await start({ world, now: () => now, rpc: false })
    const verify = async () =>
      (await verifyCredentials(local.client, { addresses: [subject], credentials: ['gov-id'] })).results[subject]!['gov-id'].reason
    expect(await local.client.getBlockNumber()).toBe(local.blockAt(new Date(now)))
    expect(await verify()).toBe('none')
    now = nowSec * 1000
    expect(await verify()).toBe('valid')
    expect(await local.client.getBlockNumber()).toBe(BigInt((nowSec - chain.genesisTime) / 2))
    expect(local.timeOf(await local.client.getBlockNumber()).getTime()).toBe(nowSec * 1000)
  })

  it('is read-only: writes and node controls are refused, no account is offered', async () => {
    const local = await start({ world: small, now: () => nowSec * 1000, rpc: false })
    const refused = (method: string) => local.provider.request({ method, params: [] })
    await expect(refused('eth_sendTransaction')).rejects.toMatchObject({ code: -32601, message: expect.stringContaining('read-only') })
    await expect(refused('evm_mine')).rejects.toMatchObject({ code: -32601 })
    await expect(refused('hardhat_setStorageAt')).rejects.toMatchObject({ code: -32601 })
    expect(await local.provider.request({ method: 'eth_accounts' })).toEqual([])
  })

  it('serves JSON-RPC over HTTP, and names the port when it is taken', async () => {
    const local = await start({ world: small, now: () => nowSec * 1000 })
    expect(local.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const client = createPublicClient({ chain: local.chain, transport: http(local.rpcUrl) })
    expect(await client.getChainId()).toBe(10)
    expect(await client.getBlockNumber()).toBe(local.blockAt(worldNow))
    const demo = small.demoAccounts.find((account) => account.story === 'gov-id-verified')!
    const { results } = await verifyCredentials(client, { addresses: [demo.address], credentials: ['gov-id'] })
    expect(results[demo.address]!['gov-id'].valid).toBe(true)

    const port = Number(new URL(local.rpcUrl!).port)
    const taken = startLocalChain({ world: small, now: () => nowSec * 1000, rpc: { port } })
    await expect(taken).rejects.toThrow(LocalChainError)
    await expect(taken).rejects.toThrow(`The local chain could not listen on 127.0.0.1:${port}: the port is in use.`)
  })

  it('stands in for the Base Sepolia sandbox: its SBTs, at the sandbox Hub, as E4 answers for chain 84532', async () => {
    const world: World = small
    const now = nowSec * 1000 + 3_600_000
    const local = await start({ world, now: () => now, network: 'base-sepolia', rpc: false })
    expect(local.contracts.hub).toBe(baseSepoliaNetwork.contracts.hub)
    const sandbox = world.verifications.filter((record) => record.network === 'base-sepolia')
    expect(sandbox.map((record) => record.kind).sort()).toEqual(['sandbox', 'sandbox-empty-public-values'])
    const addresses = sandbox.map((record) => record.address)
    const server = createServer({ world, now: () => now })
    const humanId = createHumanIdClient({
      baseUrl: 'http://personhood.local/human-id',
      fetch: ((input: string | URL | Request, init?: RequestInit) => server.fetch(new Request(input, init))) as typeof fetch,
      retry: false,
    })
    const block = await local.client.getBlockNumber()
    for (const credential of ['gov-id', 'phone'] as const) {
      const scores = await humanId.getVotingStrategyScores({ credential, network: 84532, snapshot: block, addresses })
      const { results } = await verifyCredentials(local.client, { addresses, credentials: [credential], blockNumber: block, allowSandbox: true })
      expect(Object.fromEntries(addresses.map((address) => [address, results[address]![credential].valid ? 1 : 0]))).toEqual(scores)
    }
  })
})
