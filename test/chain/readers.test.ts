/**
 * The chain readers on their own, on the EVM: multicall, Hub SBTs, permanent stores, Sign Protocol,
 * block header, and the client adapter.
 */
import { providers as ethers5Providers } from 'ethers5'
import { JsonRpcProvider } from 'ethers'
import { beforeAll, describe, expect, it } from 'vitest'
import { createClient, createPublicClient, custom, encodeFunctionData, http } from 'viem'
import { baseSepolia, optimism } from 'viem/chains'
import { hubAbi } from '../../src/chain/abis.js'
import { optimismNetwork } from '../../src/chain/constants.js'
import { getSbtCall, readSbts, sbtId } from '../../src/chain/hub.js'
import { readLegacyUniqueness } from '../../src/chain/legacy.js'
import { blockTimestampCall, decodeBlockTimestamp, multicallAt } from '../../src/chain/multicall.js'
import { declaredChainId, toPublicClient } from '../../src/chain/provider.js'
import { readBlockHeader, readChainId } from '../../src/chain/rpc.js'
import { readAttestations } from '../../src/chain/sign-protocol.js'
import { BlockNotAvailableError, ChainReadError, InvalidParameterError } from '../../src/errors/index.js'
import { TestChain } from './harness.js'
import { freshAddress } from './helpers.js'

let chain: TestChain

beforeAll(async () => {
  chain = await TestChain.start()
})

describe('multicallAt', () => {
  it('returns one result per call in order; a reverting call fails alone', async () => {
    const [live, missing] = [freshAddress(), freshAddress()]
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.issueSBT(live, 'phone', { expiry: timestamp + 100n })
    const circuitId = optimismNetwork.circuitIds.phone
    const results = await multicallAt(chain.client, {
      multicall3: chain.contracts.multicall3,
      blockNumber,
      calls: [getSbtCall(chain.contracts.hub, missing, circuitId), getSbtCall(chain.contracts.hub, live, circuitId)],
    })
    expect(results.map((result) => result.success)).toEqual([false, true])
    expect(results[1]?.returnData.length).toBeGreaterThan(2)
  })

  it('returns nothing for no calls, without a request', async () => {
    const results = await multicallAt({} as never, { multicall3: chain.contracts.multicall3, blockNumber: 1n, calls: [] })
    expect(results).toEqual([])
  })
})

describe('readers', () => {
  it('readSbts reads getSBT and sbtOwners', async () => {
    const [live, missing] = [freshAddress(), freshAddress()]
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.issueSBT(live, 'gov-id', { expiry: timestamp + 100n })
    const circuitId = optimismNetwork.circuitIds['gov-id']
    const readings = await readSbts(chain.client, {
      hub: chain.contracts.hub,
      multicall3: chain.contracts.multicall3,
      reads: [
        { subject: live, circuitId },
        { subject: missing, circuitId },
      ],
      blockNumber,
    })
    expect(readings[0]).toMatchObject({ getSBT: { status: 'success', expiry: timestamp + 100n }, sbtOwners: { expiry: timestamp + 100n, revoked: false } })
    expect(readings[1]).toMatchObject({ getSBT: { status: 'reverted', revertReason: 'SBT is expired or does not exist' }, sbtOwners: { expiry: 0n } })
  })

  it('sbtId is keccak256(abi.encodePacked(subject, circuitId)), as the Hub computes it', async () => {
    const subject = freshAddress()
    const circuitId = optimismNetwork.circuitIds.biometrics
    const data = encodeFunctionData({ abi: [{ type: 'function', name: 'sbtId', stateMutability: 'pure', inputs: [{ type: 'address' }, { type: 'bytes32' }], outputs: [{ type: 'bytes32' }] }], functionName: 'sbtId', args: [subject, circuitId] })
    const onchain = await chain.provider.request({ method: 'eth_call', params: [{ to: chain.contracts.hub, data }, 'latest'] })
    expect(onchain).toBe(sbtId(subject, circuitId))
  })

  it('readLegacyUniqueness reads isUniqueForAction', async () => {
    const [unique, other] = [freshAddress(), freshAddress()]
    const { blockNumber } = await chain.setLegacyUnique('gov-id', unique, 5n)
    const answers = await readLegacyUniqueness(chain.client, {
      store: chain.contracts.govIdLegacyStore,
      multicall3: chain.contracts.multicall3,
      users: [unique, other],
      actionId: 5n,
      blockNumber,
    })
    expect(answers).toEqual([true, false])
  })

  it('readAttestations reads getAttestation; an unknown id is all zeros', async () => {
    const recipient = freshAddress()
    const { blockNumber, timestamp } = await chain.attest({ attestationId: 77n, recipient, validUntil: 2_000_000_000n })
    const [known, unknown] = await readAttestations(chain.client, {
      signProtocol: chain.contracts.signProtocol,
      multicall3: chain.contracts.multicall3,
      reads: [
        { attestationId: 77n, subject: recipient },
        { attestationId: 78n, subject: recipient },
      ],
      blockNumber,
    })
    expect(known).toMatchObject({ schemaId: 8n, attestTimestamp: timestamp, validUntil: 2_000_000_000n, revoked: false, attester: optimismNetwork.cleanHands.attester })
    expect(unknown).toMatchObject({ schemaId: 0n, attestTimestamp: 0n, attester: '0x0000000000000000000000000000000000000000', recipients: [] })
  })

  it('readBlockHeader reads the header; a block after the head is BlockNotAvailableError', async () => {
    const mined = await chain.mine()
    const client = toPublicClient(chain.provider)
    expect(await readBlockHeader(client, { blockNumber: mined.blockNumber, addresses: [] })).toMatchObject({ number: mined.blockNumber, timestamp: mined.timestamp })
    expect(await readChainId(client, { addresses: [] })).toBe(10)
    await expect(readBlockHeader(client, { blockNumber: mined.blockNumber + 5n, addresses: [] })).rejects.toBeInstanceOf(BlockNotAvailableError)
  })
})

describe('the block timestamp inside a multicall', () => {
  it('is the timestamp of the block the multicall reads, not of the head', async () => {
    const subject = freshAddress()
    const past = await chain.mine(((await chain.latest()).timestamp) + 1_000n)
    await chain.mine(past.timestamp + 5_000n)
    const client = toPublicClient(chain.provider)
    const [result] = await multicallAt(client, { multicall3: chain.contracts.multicall3, blockNumber: past.blockNumber, calls: [blockTimestampCall(chain.contracts.multicall3, subject)] })
    expect(decodeBlockTimestamp(result!, { blockNumber: past.blockNumber, addresses: [subject] })).toBe(past.timestamp)
    expect((await readBlockHeader(client, { blockNumber: past.blockNumber, addresses: [] })).timestamp).toBe(past.timestamp)
  })

  it('fails loudly when the call failed or answered something else than a uint256', () => {
    const context = { blockNumber: 1n, addresses: ['0x52908400098527886e0f7030069857d2e4169ee7'] }
    for (const result of [
      { success: false, returnData: '0x' as const },
      { success: true, returnData: '0x' as const },
      { success: true, returnData: `0x${'00'.repeat(64)}` as const },
    ]) {
      expect(() => decodeBlockTimestamp(result, context)).toThrow(ChainReadError)
    }
    expect(decodeBlockTimestamp({ success: true, returnData: `0x${'00'.repeat(31)}2a` }, context)).toBe(42n)
  })
})

describe('declaredChainId', () => {
  const url = 'http://127.0.0.1:9' // never contacted: declaredChainId sends nothing

  it('reads the chain a viem client was created with, and nothing from a client without one', () => {
    expect(declaredChainId(createPublicClient({ chain: optimism, transport: http(url) }))).toBe(10)
    expect(declaredChainId(createClient({ chain: baseSepolia, transport: http(url) }))).toBe(84532)
    expect(declaredChainId(createPublicClient({ transport: http(url) }))).toBeUndefined()
    expect(declaredChainId(chain.client)).toBeUndefined()
    expect(declaredChainId(chain.provider)).toBeUndefined()
    expect(declaredChainId({ send: async () => '0xa' })).toBeUndefined()
  })

  it('reads an ethers v5 network given to the provider, not the "any" network nor one still to detect', () => {
    expect(declaredChainId(new ethers5Providers.StaticJsonRpcProvider(url, 10))).toBe(10)
    expect(declaredChainId(new ethers5Providers.JsonRpcProvider(url, { name: 'local', chainId: 31337 }))).toBe(31337)
    expect(declaredChainId(new ethers5Providers.StaticJsonRpcProvider(url, 'any'))).toBeUndefined()
  })

  it('reads an ethers v6 static network, not a network the provider may still change or detect', () => {
    const providers = [
      new JsonRpcProvider(url, 10, { staticNetwork: true }),
      new JsonRpcProvider(url, 10),
      new JsonRpcProvider(url, undefined, { staticNetwork: true }),
    ]
    try {
      expect(providers.map((provider) => declaredChainId(provider))).toEqual([10, undefined, undefined])
    } finally {
      for (const provider of providers) provider.destroy()
    }
  })
})

describe('toPublicClient', () => {
  it('keeps a viem PublicClient, wraps other viem clients, EIP-1193 and ethers-style providers', async () => {
    expect(toPublicClient(chain.client)).toBe(chain.client)
    const plain = createClient({ transport: custom(chain.provider) })
    const ethersLike = { send: (method: string, params: unknown[]) => chain.provider.request({ method, params }) }
    for (const client of [plain, chain.provider, ethersLike]) {
      const wrapped = toPublicClient(client)
      expect(wrapped.type).toBe('publicClient')
      expect(await wrapped.getChainId()).toBe(10)
      const { timestamp } = await chain.latest()
      const subject = freshAddress()
      await chain.issueSBT(subject, 'gov-id', { expiry: timestamp + 100n })
      const sbt = await wrapped.readContract({ address: chain.contracts.hub, abi: hubAbi, functionName: 'getSBT', args: [subject, optimismNetwork.circuitIds['gov-id']] })
      expect(sbt.expiry).toBe(timestamp + 100n)
    }
  })

  it('rejects anything else', () => {
    expect(() => toPublicClient({} as never)).toThrow(InvalidParameterError)
    expect(() => toPublicClient(null as never)).toThrow(InvalidParameterError)
  })
})
