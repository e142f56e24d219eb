/**
 * verifyCredentials against the Solidity test contracts on hardhat's in-process EDR network, at
 * chain id 10 with every contract at its Optimism address: the built-in constants are used as is.
 */
import { providers as ethers5Providers } from 'ethers5'
import { JsonRpcProvider } from 'ethers'
import { createPublicClient, custom } from 'viem'
import { optimism } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { optimismNetwork } from '../../src/chain/constants.js'
import { BlockNotAvailableError } from '../../src/errors/index.js'
import { verifyCredentials, type CredentialResult } from '../../src/verify/credentials/index.js'
import { TestChain } from './harness.js'
import { freshAddress, goodRow, indexOf, instrument } from './helpers.js'
import { serveJsonRpc, type RpcServer } from './rpc-server.js'

let chain: TestChain

beforeAll(async () => {
  chain = await TestChain.start()
})

const day = 86_400n

/** Verifies one address and credential at a block and returns its result. */
async function verifyOne(
  address: string,
  credential: 'gov-id' | 'phone' | 'biometrics' | 'clean-hands',
  options: { blockNumber?: bigint; actionId?: bigint; rows?: Parameters<typeof indexOf>[0] } = {},
): Promise<CredentialResult> {
  const { results } = await verifyCredentials(chain.client, {
    addresses: [address],
    credentials: [credential],
    blockNumber: options.blockNumber,
    actionId: options.actionId,
    attestationIndex: indexOf(options.rows ?? {}),
  })
  const result = results[address.toLowerCase() as `0x${string}`]?.[credential]
  if (!result) throw new Error('no result')
  return result
}

describe('Human ID SBTs', () => {
  it('counts a valid SBT, with its expiry and the reads it rests on', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.issueSBT(address, 'gov-id', { expiry: timestamp + 365n * day })
    const result = await verifyOne(address, 'gov-id', { blockNumber })
    expect(result).toMatchObject({ valid: true, reason: 'valid', expiresAt: timestamp + 365n * day })
    expect(result.evidence).toHaveLength(1)
    expect(result.evidence[0]).toMatchObject({
      kind: 'sbt',
      circuit: 'gov-id',
      contract: optimismNetwork.contracts.hub,
      circuitId: optimismNetwork.circuitIds['gov-id'],
      getSBT: { status: 'success', expiry: timestamp + 365n * day, revoked: false },
      expected: { actionId: 123456789n, issuer: optimismNetwork.issuers['gov-id'] },
    })
  })

  it('answers none for an address that never had an SBT', async () => {
    const result = await verifyOne(freshAddress(), 'biometrics')
    expect(result).toMatchObject({ valid: false, reason: 'none' })
    expect(result.evidence[0]).toMatchObject({
      getSBT: { status: 'reverted', revertReason: 'SBT is expired or does not exist' },
      sbtOwners: { expiry: 0n, revoked: false },
    })
  })

  it('answers expired for an SBT whose expiry is before the block timestamp', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    await chain.issueSBT(address, 'biometrics', { expiry: timestamp + 100n })
    const { blockNumber } = await chain.mine(timestamp + 101n)
    const result = await verifyOne(address, 'biometrics', { blockNumber })
    expect(result).toMatchObject({ valid: false, reason: 'expired' })
    expect(result.evidence[0]).toMatchObject({ sbtOwners: { expiry: timestamp + 100n, revoked: false } })
  })

  it('counts an SBT whose expiry equals the block timestamp (the Hub reverts only when expiry < timestamp)', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const expiry = timestamp + 50n
    await chain.issueSBT(address, 'gov-id', { expiry })
    const atExpiry = await chain.mine(expiry)
    expect(atExpiry.timestamp).toBe(expiry)
    expect(await verifyOne(address, 'gov-id', { blockNumber: atExpiry.blockNumber })).toMatchObject({ valid: true, reason: 'valid', expiresAt: expiry })
    const after = await chain.mine(expiry + 1n)
    expect(await verifyOne(address, 'gov-id', { blockNumber: after.blockNumber })).toMatchObject({ valid: false, reason: 'expired' })
  })

  it('answers revoked for a revoked SBT', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    await chain.issueSBT(address, 'biometrics', { expiry: timestamp + day })
    const { blockNumber } = await chain.revokeSBT(address, 'biometrics')
    const result = await verifyOne(address, 'biometrics', { blockNumber })
    expect(result).toMatchObject({ valid: false, reason: 'revoked' })
    expect(result.evidence[0]).toMatchObject({ getSBT: { status: 'reverted', revertReason: 'SBT has been revoked' }, sbtOwners: { revoked: true } })
  })

  it('judges at the snapshot block: valid before a revocation, revoked after, and the same again later', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const issued = await chain.issueSBT(address, 'biometrics', { expiry: timestamp + day })
    const revoked = await chain.revokeSBT(address, 'biometrics')
    expect(await verifyOne(address, 'biometrics', { blockNumber: issued.blockNumber })).toMatchObject({ valid: true, reason: 'valid' })
    expect(await verifyOne(address, 'biometrics', { blockNumber: revoked.blockNumber })).toMatchObject({ valid: false, reason: 'revoked' })
    await chain.mine()
    const again = await verifyOne(address, 'biometrics', { blockNumber: issued.blockNumber })
    expect(again).toEqual(await verifyOne(address, 'biometrics', { blockNumber: issued.blockNumber }))
    expect(again).toMatchObject({ valid: true, reason: 'valid' })
  })

  it('answers wrong-action for an SBT minted for another action, and valid when asked for that action', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.issueSBT(address, 'gov-id', { expiry: timestamp + day, actionId: 42n })
    expect(await verifyOne(address, 'gov-id', { blockNumber })).toMatchObject({ valid: false, reason: 'wrong-action' })
    expect(await verifyOne(address, 'gov-id', { blockNumber, actionId: 42n })).toMatchObject({ valid: true, reason: 'valid' })
  })

  it('answers wrong-issuer for an SBT from another issuer', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.issueSBT(address, 'biometrics', { expiry: timestamp + day, issuer: optimismNetwork.issuers['gov-id'] })
    expect(await verifyOne(address, 'biometrics', { blockNumber })).toMatchObject({ valid: false, reason: 'wrong-issuer' })
  })

  it('compares the 31-byte phone issuer as an integer', async () => {
    const phoneIssuer = optimismNetwork.issuers.phone
    expect(phoneIssuer.toString(16)).toHaveLength(62) // 31 bytes
    const { timestamp } = await chain.latest()
    const good = freshAddress()
    await chain.issueSBT(good, 'phone', { expiry: timestamp + day, issuer: phoneIssuer })
    // The same hex digits shifted by a byte (what a 32-byte string comparison could confuse).
    const shifted = freshAddress()
    const { blockNumber } = await chain.issueSBT(shifted, 'phone', { expiry: timestamp + day, issuer: phoneIssuer << 8n })
    expect(await verifyOne(good, 'phone', { blockNumber })).toMatchObject({ valid: true, reason: 'valid' })
    expect(await verifyOne(shifted, 'phone', { blockNumber })).toMatchObject({ valid: false, reason: 'wrong-issuer' })
  })

  it('counts the permanent gov-id and phone stores as legacy, for the action they hold', async () => {
    const address = freshAddress()
    await chain.setLegacyUnique('gov-id', address, 123456789n)
    const { blockNumber } = await chain.setLegacyUnique('phone', address, 7n)
    const govId = await verifyOne(address, 'gov-id', { blockNumber })
    expect(govId).toMatchObject({ valid: true, reason: 'legacy' })
    expect(govId.expiresAt).toBeUndefined()
    expect(govId.evidence.at(-1)).toEqual({
      kind: 'legacy-store',
      contract: optimismNetwork.contracts.govIdLegacyStore,
      call: 'isUniqueForAction',
      user: address,
      actionId: 123456789n,
      isUnique: true,
    })
    expect(await verifyOne(address, 'phone', { blockNumber })).toMatchObject({ valid: false, reason: 'none' })
    expect(await verifyOne(address, 'phone', { blockNumber, actionId: 7n })).toMatchObject({ valid: true, reason: 'legacy' })
  })

  it('accepts a zk-passport SBT (with its own issuer) for gov-id, and not for another credential', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.issueSBT(address, 'zk-passport', { expiry: timestamp + day })
    const result = await verifyOne(address, 'gov-id', { blockNumber })
    expect(result).toMatchObject({ valid: true, reason: 'valid', expiresAt: timestamp + day })
    expect(result.evidence.map((entry) => (entry.kind === 'sbt' ? `${entry.circuit}:${entry.reason}` : entry.kind))).toEqual([
      'gov-id:none',
      'zk-passport:valid',
    ])
    expect(await verifyOne(address, 'biometrics', { blockNumber })).toMatchObject({ valid: false, reason: 'none' })
  })

  it('does not accept a zk-passport SBT carrying the gov-id issuer', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.issueSBT(address, 'zk-passport', { expiry: timestamp + day, issuer: optimismNetwork.issuers['gov-id'] })
    expect(await verifyOne(address, 'gov-id', { blockNumber })).toMatchObject({ valid: false, reason: 'wrong-issuer' })
  })

  it('judges at the block timestamp, never the wall clock', async () => {
    const address = freshAddress()
    const wallClock = new Date('2024-01-01T00:00:00Z')
    const wallSeconds = BigInt(wallClock.getTime() / 1000)
    const { timestamp } = await chain.latest()
    // Valid by the wall clock (expiry after 2024), expired at the block (the chain is later).
    const expiry = timestamp + 10n
    expect(expiry > wallSeconds).toBe(true)
    await chain.issueSBT(address, 'gov-id', { expiry })
    const { blockNumber } = await chain.mine(expiry + 1n)
    vi.useFakeTimers({ toFake: ['Date'], now: wallClock })
    try {
      expect(await verifyOne(address, 'gov-id', { blockNumber })).toMatchObject({ valid: false, reason: 'expired' })
    } finally {
      vi.useRealTimers()
    }
  })

  it('reads several addresses and credentials in one multicall, a reverting call failing alone', async () => {
    const [a, b, c] = [freshAddress(), freshAddress(), freshAddress()]
    const { timestamp } = await chain.latest()
    await chain.issueSBT(a, 'gov-id', { expiry: timestamp + day })
    await chain.issueSBT(b, 'phone', { expiry: timestamp + day })
    await chain.issueSBT(c, 'biometrics', { expiry: timestamp + day })
    const { blockNumber } = await chain.latest()
    const provider = instrument(chain.provider)
    const response = await verifyCredentials(provider, {
      addresses: [a, b.toUpperCase().replace('0X', '0x'), c, a],
      credentials: ['gov-id', 'phone', 'biometrics'],
      blockNumber,
    })
    expect(Object.keys(response.results)).toEqual([a, b, c])
    const summary = Object.fromEntries(
      Object.entries(response.results).map(([address, entry]) => [address, Object.values(entry).map((result) => result.reason).join(',')]),
    )
    expect(summary).toEqual({ [a]: 'valid,none,none', [b]: 'none,valid,none', [c]: 'none,none,valid' })
    expect(response).toMatchObject({ blockNumber, chainId: 10, network: 'optimism', sandbox: false, actionId: 123456789n })
    // eth_chainId (an EIP-1193 provider declares no chain), one multicall for getSBT, one for
    // sbtOwners, the fallbacks and the block timestamp. No header: the block was given by number.
    expect(provider.methods).toEqual({ eth_chainId: 1, eth_call: 2 })
    expect(response.blockTimestamp).toBe((await chain.latest()).timestamp)
    expect(response.blockHash).toBeUndefined()
  })

  it('splits calls into requests of batchSize calls, with at most `concurrency` in flight', async () => {
    const addresses = Array.from({ length: 30 }, () => freshAddress())
    const { timestamp } = await chain.latest()
    for (const address of addresses) await chain.issueSBT(address, 'biometrics', { expiry: timestamp + day })
    const provider = instrument(chain.provider)
    const { results } = await verifyCredentials(provider, { addresses, credentials: ['biometrics'], batchSize: 4, concurrency: 2 })
    expect(Object.values(results).every((entry) => entry.biometrics.valid)).toBe(true)
    expect(provider.methods.eth_call).toBe(Math.ceil(30 / 4))
    expect(provider.maxInFlight).toBe(2)
  })
})

describe('requests: only what the answer needs', () => {
  /** A viem client declaring Optimism, over a provider that counts requests. */
  function declaredClient() {
    const provider = instrument(chain.provider)
    return { provider, client: createPublicClient({ chain: optimism, transport: custom(provider, { retryCount: 0 }) }) }
  }

  it('reads valid SBTs at a given block with one eth_call per batch and nothing else', async () => {
    const addresses = [freshAddress(), freshAddress(), freshAddress()]
    const { timestamp } = await chain.latest()
    for (const address of addresses) {
      for (const credential of ['gov-id', 'phone', 'biometrics'] as const) await chain.issueSBT(address, credential, { expiry: timestamp + day })
    }
    const { blockNumber } = await chain.latest()
    const { provider, client } = declaredClient()
    const response = await verifyCredentials(client, { addresses, credentials: ['gov-id', 'phone', 'biometrics'], blockNumber, batchSize: 4 })
    expect(Object.values(response.results).flatMap((entry) => Object.values(entry).map((result) => result.reason))).toEqual(Array(9).fill('valid'))
    expect(provider.methods).toEqual({ eth_call: Math.ceil(9 / 4) })
    // getSBT judged expiry at the block; neither the header nor the timestamp was needed.
    expect(response).toMatchObject({ blockNumber, chainId: 10 })
    expect(response.blockTimestamp).toBeUndefined()
    expect(response.blockHash).toBeUndefined()
  })

  it('reads the block timestamp inside the second multicall when a getSBT reverts, and judges expiry with it', async () => {
    const [expired, live] = [freshAddress(), freshAddress()]
    const { timestamp } = await chain.latest()
    await chain.issueSBT(expired, 'phone', { expiry: timestamp + 10n })
    await chain.issueSBT(live, 'phone', { expiry: timestamp + day })
    const block = await chain.mine(timestamp + 11n)
    await chain.mine(timestamp + 2n * day) // the head is later: the timestamp must be the block's
    const { provider, client } = declaredClient()
    const response = await verifyCredentials(client, { addresses: [expired, live], credentials: ['phone'], blockNumber: block.blockNumber })
    expect(response.results[expired]?.phone).toMatchObject({ valid: false, reason: 'expired' })
    expect(response.results[live]?.phone).toMatchObject({ valid: true, reason: 'valid' })
    expect(response.blockTimestamp).toBe(block.timestamp)
    expect(provider.methods).toEqual({ eth_call: 2 })
  })

  it('pins latest with one header read, and reports its hash and timestamp', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    await chain.issueSBT(address, 'gov-id', { expiry: timestamp + day })
    const head = await chain.latest()
    const { provider, client } = declaredClient()
    const response = await verifyCredentials(client, { addresses: [address], credentials: ['gov-id'] })
    expect(response).toMatchObject({ blockNumber: head.blockNumber, blockTimestamp: head.timestamp })
    expect(response.blockHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(provider.methods).toEqual({ eth_getBlockByNumber: 1, eth_call: 1 })
  })

  it('reads the header for clean hands at a given block (index rows are filtered at its timestamp)', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const attested = await chain.attest({ attestationId: 0x301n, recipient: address, validUntil: timestamp + day })
    const { provider, client } = declaredClient()
    const response = await verifyCredentials(client, {
      addresses: [address],
      credentials: ['clean-hands'],
      blockNumber: attested.blockNumber,
      attestationIndex: indexOf({ [address]: [goodRow(0x301n, timestamp + day)] }),
    })
    expect(response.results[address]?.['clean-hands']).toMatchObject({ valid: true, reason: 'valid' })
    expect(response).toMatchObject({ blockNumber: attested.blockNumber, blockTimestamp: attested.timestamp })
    expect(provider.methods).toEqual({ eth_getBlockByNumber: 1, eth_call: 1 })
  })

  it('gives the same answers whether the client declares its chain or the node is asked', async () => {
    const addresses = [freshAddress(), freshAddress(), freshAddress()]
    const { timestamp } = await chain.latest()
    await chain.issueSBT(addresses[0]!, 'biometrics', { expiry: timestamp + day })
    await chain.issueSBT(addresses[1]!, 'biometrics', { expiry: timestamp + 5n })
    await chain.revokeSBT(addresses[1]!, 'biometrics')
    const { blockNumber } = await chain.mine(timestamp + 10n)
    const declared = await verifyCredentials(declaredClient().client, { addresses, credentials: ['biometrics'], blockNumber })
    const asked = await verifyCredentials(chain.client, { addresses, credentials: ['biometrics'], blockNumber })
    expect(declared).toEqual(asked)
    expect(Object.values(asked.results).map((entry) => entry.biometrics.reason)).toEqual(['valid', 'revoked', 'none'])
  })
})

describe('clean hands', () => {
  it('counts an attestation that passes the rule in the index and on-chain at the block', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.attest({ attestationId: 0x101n, recipient: address, validUntil: timestamp + day })
    const result = await verifyOne(address, 'clean-hands', { blockNumber, rows: { [address]: [goodRow(0x101n, timestamp + day)] } })
    expect(result).toMatchObject({ valid: true, reason: 'valid', expiresAt: timestamp + day })
    expect(result.evidence[1]).toMatchObject({
      kind: 'attestation',
      attestationId: '0x101',
      rowReason: 'valid',
      onchain: {
        contract: optimismNetwork.contracts.signProtocol,
        call: 'getAttestation',
        attestationId: 0x101n,
        recipient: address,
        reason: 'valid',
        attestation: { schemaId: 8n, revoked: false, validUntil: timestamp + day },
      },
    })
  })

  it('answers none when the index has no rows', async () => {
    const address = freshAddress()
    const index = indexOf({})
    const { results } = await verifyCredentials(chain.client, { addresses: [address], credentials: ['clean-hands'], attestationIndex: index })
    expect(results[address]?.['clean-hands']).toEqual({ valid: false, reason: 'none', evidence: [{ kind: 'attestation-index', address, rowCount: 0, lookup: 'address' }] })
    expect(index.calls).toEqual([address])
  })

  it('answers wrong-recipient when recipients[0] names another address', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.attest({ attestationId: 0x102n, recipient: freshAddress(), validUntil: timestamp + day })
    expect(await verifyOne(address, 'clean-hands', { blockNumber, rows: { [address]: [goodRow(0x102n, timestamp + day)] } })).toMatchObject({
      valid: false,
      reason: 'wrong-recipient',
    })
  })

  it('compares the recipient and the attester case-insensitively', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.attest({ attestationId: 0x103n, recipient: address.toUpperCase().replace('0X', '0x'), validUntil: timestamp + day })
    const row = goodRow(0x103n, timestamp + day, { attester: '0xB1F50C6C34C72346B1229E5C80587D0D659556FD' })
    expect(await verifyOne(address, 'clean-hands', { blockNumber, rows: { [address]: [row] } })).toMatchObject({ valid: true, reason: 'valid' })
  })

  it('answers wrong-attester for another attester, in the index or on-chain', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.attest({ attestationId: 0x104n, recipient: address, validUntil: timestamp + day, attester: freshAddress() })
    expect(await verifyOne(address, 'clean-hands', { blockNumber, rows: { [address]: [goodRow(0x104n, timestamp + day)] } })).toMatchObject({
      valid: false,
      reason: 'wrong-attester',
    })
    const row = goodRow(0x104n, timestamp + day, { attester: freshAddress() })
    const result = await verifyOne(address, 'clean-hands', { blockNumber, rows: { [address]: [row] } })
    expect(result).toMatchObject({ valid: false, reason: 'wrong-attester' })
    expect(result.evidence[1]).toMatchObject({ rowReason: 'wrong-attester' })
    expect(result.evidence[1]).not.toHaveProperty('onchain') // a row that fails the rule is not read on-chain
  })

  it('answers wrong-schema for schema onchain_evm_10_0x80 in the index, or schema 9 on-chain', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.attest({ attestationId: 0x105n, recipient: address, validUntil: timestamp + day, schemaId: 9n })
    const rows = { [address]: [goodRow(0x105n, timestamp + day, { fullSchemaId: 'onchain_evm_10_0x80' })] }
    expect(await verifyOne(address, 'clean-hands', { blockNumber, rows })).toMatchObject({ valid: false, reason: 'wrong-schema' })
    expect(await verifyOne(address, 'clean-hands', { blockNumber, rows: { [address]: [goodRow(0x105n, timestamp + day)] } })).toMatchObject({
      valid: false,
      reason: 'wrong-schema',
    })
  })

  it('answers expired for validUntil "0" in the index, or 0 on-chain', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.attest({ attestationId: 0x106n, recipient: address, validUntil: 0n })
    expect(await verifyOne(address, 'clean-hands', { blockNumber, rows: { [address]: [goodRow(0x106n, '0')] } })).toMatchObject({
      valid: false,
      reason: 'expired',
    })
    const result = await verifyOne(address, 'clean-hands', { blockNumber, rows: { [address]: [goodRow(0x106n, timestamp + day)] } })
    expect(result).toMatchObject({ valid: false, reason: 'expired' })
    expect(result.evidence[1]).toMatchObject({ rowReason: 'valid', onchain: { reason: 'expired', attestation: { validUntil: 0n } } })
  })

  it('answers expired for an attestation expired at the block but valid now by the wall clock', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const validUntil = timestamp + 10n
    await chain.attest({ attestationId: 0x107n, recipient: address, validUntil })
    const { blockNumber } = await chain.mine(validUntil) // validUntil > timestamp fails when equal
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(Number(validUntil - day) * 1000) })
    try {
      expect(await verifyOne(address, 'clean-hands', { blockNumber, rows: { [address]: [goodRow(0x107n, validUntil)] } })).toMatchObject({
        valid: false,
        reason: 'expired',
      })
    } finally {
      vi.useRealTimers()
    }
  })

  it('counts an attestation valid at the snapshot block even though it has expired since', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const validUntil = timestamp + 100n
    const attested = await chain.attest({ attestationId: 0x108n, recipient: address, validUntil })
    await chain.mine(validUntil + 1n)
    const rows = { [address]: [goodRow(0x108n, validUntil)] }
    expect(await verifyOne(address, 'clean-hands', { blockNumber: attested.blockNumber, rows })).toMatchObject({ valid: true, reason: 'valid' })
    expect(await verifyOne(address, 'clean-hands', { rows })).toMatchObject({ valid: false, reason: 'expired' })
  })

  it('judges revocation on-chain at the block: valid before, revoked after', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const attested = await chain.attest({ attestationId: 0x109n, recipient: address, validUntil: timestamp + day })
    const revoked = await chain.revokeAttestation(0x109n)
    const rows = { [address]: [goodRow(0x109n, timestamp + day)] }
    expect(await verifyOne(address, 'clean-hands', { blockNumber: attested.blockNumber, rows })).toMatchObject({ valid: true })
    expect(await verifyOne(address, 'clean-hands', { blockNumber: revoked.blockNumber, rows })).toMatchObject({ valid: false, reason: 'revoked' })
  })

  it('judges revocation at the block, not by the index row revoked since: the same call at the same block keeps its answer', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    const attested = await chain.attest({ attestationId: 0x10dn, recipient: address, validUntil: timestamp + day })
    const before = { [address]: [goodRow(0x10dn, timestamp + day)] }
    const atSnapshot = await verifyOne(address, 'clean-hands', { blockNumber: attested.blockNumber, rows: before })
    expect(atSnapshot).toMatchObject({ valid: true, reason: 'valid' })

    // Revoked on-chain after the snapshot block; the index row now says revoked: true.
    const revoked = await chain.revokeAttestation(0x10dn)
    const now = { [address]: [goodRow(0x10dn, timestamp + day, { revoked: true })] }
    const again = await verifyOne(address, 'clean-hands', { blockNumber: attested.blockNumber, rows: now })
    expect(again).toMatchObject({ valid: true, reason: 'valid' })
    expect(again.evidence[1]).toMatchObject({
      row: { revoked: true },
      rowReason: 'valid',
      onchain: { reason: 'valid', attestation: { revoked: false, revokeTimestamp: 0n } },
    })
    const later = await verifyOne(address, 'clean-hands', { blockNumber: revoked.blockNumber, rows: now })
    expect(later).toMatchObject({ valid: false, reason: 'revoked' })
    expect(later.evidence[1]).toMatchObject({ rowReason: 'valid', onchain: { reason: 'revoked', attestation: { revoked: true, revokeTimestamp: revoked.timestamp } } })
  })

  it('answers none for an attestation the index lists but the chain does not hold at the block', async () => {
    const address = freshAddress()
    const before = await chain.mine()
    const { timestamp } = await chain.attest({ attestationId: 0x10an, recipient: address, validUntil: before.timestamp + day })
    const rows = { [address]: [goodRow(0x10an, timestamp + day)] }
    expect(await verifyOne(address, 'clean-hands', { blockNumber: before.blockNumber, rows })).toMatchObject({ valid: false, reason: 'none' })
  })

  it('counts the address when one of several rows is valid, and reports the furthest failure otherwise', async () => {
    const address = freshAddress()
    const { timestamp } = await chain.latest()
    await chain.attest({ attestationId: 0x10bn, recipient: freshAddress(), validUntil: timestamp + day })
    const { blockNumber } = await chain.attest({ attestationId: 0x10cn, recipient: address, validUntil: timestamp + day })
    const failing = [
      goodRow(0x1n, timestamp + day, { fullSchemaId: 'offchain_evm_10_0x8' }),
      goodRow(0x2n, timestamp + day, { isReceiver: false }),
      goodRow(0x10bn, timestamp + day),
      goodRow(0x3n, timestamp + day, { revoked: true }),
    ]
    expect(await verifyOne(address, 'clean-hands', { blockNumber, rows: { [address]: failing } })).toMatchObject({ valid: false, reason: 'wrong-recipient' })
    const result = await verifyOne(address, 'clean-hands', { blockNumber, rows: { [address]: [...failing, goodRow(0x10cn, timestamp + day)] } })
    expect(result).toMatchObject({ valid: true, reason: 'valid' })
    expect(result.evidence).toHaveLength(6)
  })
})

describe('clients', () => {
  let server: RpcServer

  beforeAll(async () => {
    server = await serveJsonRpc(chain.provider)
  })

  afterAll(async () => {
    await server.close()
  })

  /** Sets up one address per outcome and returns the expected reasons at the returned block. */
  async function scenario() {
    const [valid, revoked, legacy, none, cleanHands] = [freshAddress(), freshAddress(), freshAddress(), freshAddress(), freshAddress()]
    const { timestamp } = await chain.latest()
    await chain.issueSBT(valid, 'gov-id', { expiry: timestamp + day })
    await chain.issueSBT(revoked, 'gov-id', { expiry: timestamp + day })
    await chain.revokeSBT(revoked, 'gov-id')
    await chain.setLegacyUnique('gov-id', legacy, 123456789n)
    const { blockNumber } = await chain.attest({ attestationId: 0x200n, recipient: cleanHands, validUntil: timestamp + day })
    const rows = { [cleanHands]: [goodRow(0x200n, timestamp + day)] }
    return { addresses: [valid, revoked, legacy, none, cleanHands], blockNumber, rows }
  }

  function reasons(response: Awaited<ReturnType<typeof verifyCredentials<'gov-id' | 'clean-hands'>>>) {
    return Object.values(response.results).map((entry) => `${entry['gov-id'].reason}/${entry['clean-hands'].reason}`)
  }

  it.each([
    ['an ethers v5 StaticJsonRpcProvider (what Snapshot hands a strategy)', () => new ethers5Providers.StaticJsonRpcProvider(server.url)],
    ['an ethers v6 JsonRpcProvider', () => new JsonRpcProvider(server.url, undefined, { staticNetwork: true })],
    ['an EIP-1193 provider', () => chain.provider],
  ])('gives the same answers through %s as through a viem client', async (_name, makeProvider) => {
    const { addresses, blockNumber, rows } = await scenario()
    const expected = ['valid/none', 'revoked/none', 'legacy/none', 'none/none', 'none/valid']
    const parameters = { addresses, credentials: ['gov-id', 'clean-hands'] as const, blockNumber, attestationIndex: indexOf(rows) }
    const viaViem = await verifyCredentials(chain.client, { ...parameters })
    expect(reasons(viaViem)).toEqual(expected)
    const provider = makeProvider()
    try {
      const viaProvider = await verifyCredentials(provider, { ...parameters })
      expect(viaProvider).toEqual(viaViem)
    } finally {
      if (provider instanceof JsonRpcProvider) provider.destroy()
    }
  })

  it.each([
    ['ethers v5', (url: string) => new ethers5Providers.StaticJsonRpcProvider(url)],
    ['ethers v6', (url: string) => new JsonRpcProvider(url, undefined, { staticNetwork: true })],
  ])('reads node errors through %s: pruned state is BlockNotAvailableError, a future block too', async (_name, makeProvider) => {
    const pruned = instrument(chain.provider, ({ method }) =>
      method === 'eth_call' ? Object.assign(new Error('missing trie node 5ab7e2d1 (path ) state 0x5ab7e2d1 is not available'), { code: -32000 }) : undefined,
    )
    const failing = await serveJsonRpc(pruned)
    const address = freshAddress()
    const { blockNumber } = await chain.mine()
    const providers = [makeProvider(failing.url), makeProvider(server.url)]
    try {
      const stateError = await verifyCredentials(providers[0]!, { addresses: [address], credentials: ['phone'], blockNumber }).catch((error: unknown) => error)
      expect(stateError).toBeInstanceOf(BlockNotAvailableError)
      expect(stateError).toMatchObject({ blockNumber, addresses: [address] })
      const futureError = await verifyCredentials(providers[1]!, { addresses: [address], credentials: ['phone'], blockNumber: blockNumber + 100n }).catch(
        (error: unknown) => error,
      )
      expect(futureError).toBeInstanceOf(BlockNotAvailableError)
    } finally {
      for (const provider of providers) if (provider instanceof JsonRpcProvider) provider.destroy()
      await failing.close()
    }
  })
})
