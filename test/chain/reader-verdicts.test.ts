/**
 * `readReaderVerdicts`, the library's read through the deployless reader (the score-api folder's
 * `reader.sol`, with the protocol of src/rules/reader.ts), against the in-process EVM with
 * the Human ID contracts: every verdict equals `verifyCredentials` at the same block (valid,
 * reason, and with expiries the expiry), in one `eth_call` and no other request; a chunk that runs
 * out of gas is read again in halves; a client on another chain, or an answer the reader cannot
 * have given, is a typed error.
 */
import { createPublicClient, custom, numberToHex, type Address, type Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { optimismNetwork } from '../../src/chain/constants.js'
import { createAttestationIndexClient } from '../../src/clients/attestation-index/index.js'
import { ChainReadError, InvalidParameterError } from '../../src/errors/index.js'
import { createAttestationIndexApp } from '../../src/server/routes/attestation-index.js'
import { findCleanHandsRows } from '../../src/verify/attestation-lookup.js'
import { verifyCredentials } from '../../src/verify/credentials/index.js'
import { readReaderVerdicts } from '../../src/verify/reader-verdicts.js'
import type { AttestationRow } from '../../src/world/types.js'
import { TestChain, type Eip1193 } from './harness.js'
import { attesterLower, freshAddress, indexRow } from './helpers.js'

const day = 86_400n
const credentials = ['gov-id', 'phone', 'biometrics', 'clean-hands'] as const
let chain: TestChain
let snapshot: bigint
const voters: Address[] = []
const rows: AttestationRow[] = []
const indexApp = createAttestationIndexApp({ attestations: () => rows })
const index = createAttestationIndexClient({ baseUrl: 'http://index.local', retry: false, fetch: async (input, init) => indexApp.fetch(new Request(input, init)) })

beforeAll(async () => {
  chain = await TestChain.start()
  const { timestamp } = await chain.latest()
  const future = timestamp + 365n * day
  const voter = () => {
    const address = freshAddress()
    voters.push(address)
    return address
  }
  await chain.issueSBT(voter(), 'gov-id', { expiry: future })
  await chain.issueSBT(voter(), 'gov-id', { expiry: timestamp + 500n })
  const revoked = voter()
  await chain.issueSBT(revoked, 'gov-id', { expiry: future })
  await chain.revokeSBT(revoked, 'gov-id')
  await chain.issueSBT(voter(), 'gov-id', { expiry: future, issuer: 5n })
  await chain.issueSBT(voter(), 'zk-passport', { expiry: future + day })
  await chain.setLegacyUnique('gov-id', voter(), 123456789n)
  const all = voter()
  for (const circuit of ['gov-id', 'phone', 'biometrics'] as const) await chain.issueSBT(all, circuit, { expiry: future - BigInt(circuit.length) })
  await chain.setLegacyUnique('phone', voter(), 123456789n)
  // A sandbox-like SBT that never expires: its expiry does not fit a date.
  await chain.issueSBT(voter(), 'biometrics', { expiry: 2n ** 256n - 1n })
  let id = 0x5000n
  const attest = async (address: Address, validUntil: bigint, onchain = true) => {
    if (onchain) await chain.attest({ attestationId: id, recipient: address, validUntil })
    rows.push(indexRow(id, address, validUntil))
    return id++
  }
  await attest(all, future + 7n)
  await attest(voter(), future + 9n)
  await attest(voter(), timestamp + 500n)
  await attest(voter(), future, false)
  await chain.revokeAttestation(await attest(voter(), future))
  voter()
  snapshot = (await chain.mine(timestamp + 1000n)).blockNumber
})


/** A client that counts each request by method, and may change what it answers. */
function counting(provider: Eip1193, change: (method: string, answer: unknown, call: number) => unknown = (_, answer) => answer) {
  const seen: Record<string, number> = {}
  return {
    seen,
    client: {
      request: async (args: { method: string; params?: unknown }) => {
        seen[args.method] = (seen[args.method] ?? 0) + 1
        return change(args.method, await provider.request(args as never), seen[args.method]!)
      },
    },
  }
}

async function candidates() {
  const found = await findCleanHandsRows({ index, addresses: voters.map((voter) => voter.toLowerCase() as Address), schemaId: 'onchain_evm_10_0x8', attester: attesterLower, lookup: 'auto', concurrency: 4 })
  return { rows: found.rows, lookup: found.summary.path }
}

describe('readReaderVerdicts', () => {
  it.each([false, true])('every verdict is verifyCredentials at the same block, in one eth_call (expiries: %s)', async (expiries) => {
    const { seen, client } = counting(chain.provider)
    const read = await readReaderVerdicts({ client, network: optimismNetwork, addresses: voters, credentials, actionId: 123456789n, blockNumber: snapshot, cleanHands: await candidates(), expiries })
    expect(seen).toEqual({ eth_call: 1 })
    const reference = await verifyCredentials(createPublicClient({ transport: custom(chain.provider) }), { network: 10, addresses: voters, credentials: [...credentials], blockNumber: snapshot, attestationIndex: index })
    expect(read.block).toEqual({ number: snapshot, timestamp: reference.blockTimestamp, chainId: 10 })
    const reasons = new Set<string>()
    for (const voter of voters) {
      const mine = read.verdicts.get(voter)!
      expect(mine.map((verdict) => verdict.credential)).toEqual([...credentials])
      for (const verdict of mine) {
        const entry = reference.results[voter.toLowerCase() as Address]![verdict.credential]
        const expiresAt = expiries && entry.expiresAt !== undefined && entry.expiresAt < 8_640_000_000_000n ? Number(entry.expiresAt) : null
        expect({ voter, credential: verdict.credential, valid: verdict.valid, reason: verdict.reason, expiresAt: verdict.expiresAt }).toEqual({
          voter,
          credential: verdict.credential,
          valid: entry.valid,
          reason: entry.reason,
          expiresAt,
        })
        reasons.add(verdict.reason)
      }
    }
    expect([...reasons].sort()).toEqual(['expired', 'legacy', 'none', 'revoked', 'valid', 'wrong-issuer'])
    // Expiries, when read, are there: a valid SBT's, a valid attestation's.
    if (expiries) expect(read.verdicts.get(voters[0]!)![0]!.expiresAt).toBeGreaterThan(Number(reference.blockTimestamp))
  })

  it("'latest' is pinned by the reader's own answer", async () => {
    const read = await readReaderVerdicts({ client: chain.provider, network: optimismNetwork, addresses: voters.slice(0, 2), credentials: ['gov-id'], actionId: 123456789n, blockNumber: 'latest' })
    expect(read.block.number).toBe((await chain.latest()).blockNumber)
  })

  it('a chunk that runs out of gas is read again once, in two halves, with the same verdicts', async () => {
    const parameters = { network: optimismNetwork, addresses: voters, credentials, actionId: 123456789n, blockNumber: snapshot, cleanHands: await candidates(), expiries: true }
    const whole = await readReaderVerdicts({ ...parameters, client: chain.provider })
    let calls = 0
    const outOfGas = {
      request: async (args: { method: string; params?: unknown }) => {
        if (args.method === 'eth_call' && ++calls === 1) throw new Error('gas required exceeds allowance (50000000)')
        return chain.provider.request(args as never)
      },
    }
    const halves = await readReaderVerdicts({ ...parameters, client: outOfGas })
    expect(calls).toBe(3)
    expect(halves).toEqual(whole)
  })

  it('a client on another chain is an InvalidParameterError; a short answer is a ChainReadError naming the block', async () => {
    const onOtherChain = counting(chain.provider, (method, answer) => {
      if (method !== 'eth_call') return answer
      // The reader's third word is block.chainid.
      const data = answer as Hex
      return `${data.slice(0, 130)}${numberToHex(1n, { size: 32 }).slice(2)}${data.slice(194)}`
    })
    const parameters = { network: optimismNetwork, addresses: voters.slice(0, 3), credentials: ['gov-id'] as const, actionId: 123456789n, blockNumber: snapshot }
    const error = await readReaderVerdicts({ ...parameters, client: onOtherChain.client }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect((error as InvalidParameterError).details).toContain('connected to chain 1')
    const short = counting(chain.provider, (method, answer) => (method === 'eth_call' ? (answer as Hex).slice(0, -2) : answer))
    const cut = await readReaderVerdicts({ ...parameters, client: short.client }).catch((caught: unknown) => caught)
    expect(cut).toBeInstanceOf(ChainReadError)
    // The head (96 bytes), then 3 voters of 2 gov-id records of 2 bytes (no expiries): 108 bytes.
    expect((cut as ChainReadError).message).toContain('The reader answered 107 bytes, not 108.')
    expect((cut as ChainReadError).message).toContain(String(snapshot))
  })

  it('clean hands on a network without Sign Protocol is refused before any request', async () => {
    const { seen, client } = counting(chain.provider)
    const sandbox = { ...optimismNetwork, contracts: { ...optimismNetwork.contracts, signProtocol: undefined } }
    await expect(readReaderVerdicts({ client, network: sandbox, addresses: voters, credentials: ['clean-hands'], actionId: 123456789n, blockNumber: snapshot })).rejects.toThrow(InvalidParameterError)
    expect(seen).toEqual({})
  })
})

describe('a reverting getAttestation (issue #27, point 7)', () => {
  it('fails alone: an id below Sign Protocol\'s initial counter is that attestation unconfirmed (reverted, none); every other voter is answered', async () => {
    const local = await TestChain.start()
    // Optimism's registry reverts for ids below its initial counter; the local one answers zeros.
    await local.provider.request({ method: 'hardhat_setCode', params: [optimismNetwork.contracts.signProtocol!, local.artifacts.CountedSignProtocol.deployedBytecode] } as never)
    const { timestamp } = await local.latest()
    const future = timestamp + 365n * day
    const [withBadRow, onlyBadRow, honest] = [freshAddress(), freshAddress(), freshAddress()]
    const listed: AttestationRow[] = []
    for (const [id, address] of [[0x1001n, withBadRow], [0x1002n, honest]] as const) {
      await local.attest({ attestationId: id, recipient: address, validUntil: future })
      listed.push(indexRow(id, address, future))
    }
    // Ids the index names but the registry never assigned (below its counter of 0x1000).
    listed.push(indexRow(0x65n, withBadRow, future), indexRow(0x66n, onlyBadRow, future))
    const block = (await local.mine(timestamp + 100n)).blockNumber
    const app = createAttestationIndexApp({ attestations: () => listed })
    const localIndex = createAttestationIndexClient({ baseUrl: 'http://index.local', retry: false, fetch: async (input, init) => app.fetch(new Request(input, init)) })
    const addresses = [withBadRow, onlyBadRow, honest]
    const found = await findCleanHandsRows({ index: localIndex, addresses: addresses.map((address) => address.toLowerCase() as Address), schemaId: 'onchain_evm_10_0x8', attester: attesterLower, lookup: 'address', concurrency: 4 })
    const read = await readReaderVerdicts({ client: local.client, network: optimismNetwork, addresses, credentials: ['clean-hands'], actionId: 123456789n, blockNumber: block, cleanHands: { rows: found.rows, lookup: 'address' } })
    const verdict = (address: Address) => read.verdicts.get(address)![0]!
    expect([withBadRow, onlyBadRow, honest].map((address) => [verdict(address).valid, verdict(address).reason])).toEqual([
      [true, 'valid'],
      [false, 'none'],
      [true, 'valid'],
    ])
    const reads = (verdict(onlyBadRow).evidence as { reads: { kind: string; onchain?: { reverted?: boolean; reason: string } }[] }).reads
    expect(reads.find((entry) => entry.kind === 'reader-attestation')?.onchain).toMatchObject({ reverted: true, reason: 'none', exists: false })
  })
})

describe('publicValues[1] is no condition (issue #27, point 3)', () => {
  it.each(['gov-id', 'phone', 'biometrics', 'zk-passport'] as const)('%s: an SBT whose publicValues[1] holds something else is valid, through the reader and verifyCredentials alike; the evidence still says so', async (circuit) => {
    const { timestamp } = await chain.latest()
    const future = timestamp + 365n * day
    const holder = freshAddress()
    // [1] holds another address (for the zk-passport SBT, what gov-id falls back on).
    await chain.setSBT(holder, optimismNetwork.circuitIds[circuit], future, [future, BigInt(freshAddress()), 123456789n, 7n, optimismNetwork.issuers[circuit]])
    const block = (await chain.mine()).blockNumber
    const credential = circuit === 'zk-passport' ? 'gov-id' : circuit
    const read = await readReaderVerdicts({ client: chain.client, network: optimismNetwork, addresses: [holder], credentials: [credential], actionId: 123456789n, blockNumber: block })
    const mine = read.verdicts.get(holder)![0]!
    expect([mine.valid, mine.reason]).toEqual([true, 'valid'])
    const sbt = (mine.evidence as { reads: { kind: string; circuit?: string; publicValues?: { subject: boolean } }[] }).reads.find((entry) => entry.kind === 'reader-sbt' && entry.circuit === circuit)
    expect(sbt?.publicValues).toEqual({ issuer: true, actionId: true, subject: false })
    const reference = await verifyCredentials(chain.client, { network: 10, addresses: [holder], credentials: [credential], blockNumber: block })
    expect(reference.results[holder.toLowerCase() as Address]![credential]).toMatchObject({ valid: true, reason: 'valid' })
  })
})
