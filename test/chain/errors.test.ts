/**
 * Failures of verifyCredentials: bad input before any request, typed errors naming the block and the
 * addresses for RPC failures and unservable blocks, loud errors for misconfigured or inconsistent
 * contracts, and the network rules (chain id check, sandbox opt-in, overrides for a test chain).
 */
import { providers as ethers5Providers } from 'ethers5'
import { JsonRpcProvider } from 'ethers'
import { beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, custom, type Address } from 'viem'
import { baseSepolia } from 'viem/chains'
import { baseSepoliaNetwork, optimismNetwork } from '../../src/chain/constants.js'
import { BlockNotAvailableError, ChainReadError, InvalidAddressError, InvalidParameterError, UnsupportedNetworkError } from '../../src/errors/index.js'
import { verifyCredentials } from '../../src/verify/credentials/index.js'
import { TestChain } from './harness.js'
import { freshAddress, goodRow, indexOf, instrument } from './helpers.js'
import { serveJsonRpc } from './rpc-server.js'

const day = 86_400n

let chain: TestChain

beforeAll(async () => {
  chain = await TestChain.start()
})

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a rejection')
}

describe('input checks, before any request', () => {
  it.each([
    ['a malformed address', { addresses: ['0x123'] }, InvalidAddressError],
    ['an address with a bad checksum', { addresses: ['0x52908400098527886e0F7030069857D2E4169EE7'] }, InvalidAddressError],
    ['no credentials', { credentials: [] }, InvalidParameterError],
    ['an unknown credential', { credentials: ['passport'] }, InvalidParameterError],
    ['clean-hands without an attestation index', { credentials: ['clean-hands'] }, InvalidParameterError],
    ['a negative block number', { blockNumber: -1 }, InvalidParameterError],
    ['a fractional action id', { actionId: 1.5 }, InvalidParameterError],
    ['an action id that is not a number', { actionId: 'abc' }, InvalidParameterError],
    ['a batch size of 0', { batchSize: 0 }, InvalidParameterError],
    ['a concurrency of 0', { concurrency: 0 }, InvalidParameterError],
    ['an unknown network name', { network: 'mainnet' }, UnsupportedNetworkError],
    ['an override that is not an address', { network: 'optimism', constants: { contracts: { hub: '0x12' } } }, InvalidParameterError],
    ['the sandbox network without allowSandbox', { network: 'base-sepolia' }, InvalidParameterError],
  ])('rejects %s', async (_name, overrides, errorClass) => {
    const provider = instrument(chain.provider)
    const error = await rejection(
      verifyCredentials(provider, { addresses: [freshAddress()], credentials: ['gov-id'], ...(overrides as object) } as Parameters<typeof verifyCredentials>[1]),
    )
    expect(error).toBeInstanceOf(errorClass)
    expect(provider.total()).toBe(0)
  })

  it('rejects a client that is neither a viem client nor a provider', async () => {
    const error = await rejection(verifyCredentials({} as never, { addresses: [], credentials: ['gov-id'] }))
    expect(error).toBeInstanceOf(InvalidParameterError)
  })
})

describe('RPC failures', () => {
  it('throws BlockNotAvailableError for a block after the head, naming the block and the addresses', async () => {
    const address = freshAddress()
    const { blockNumber } = await chain.latest()
    const error = await rejection(verifyCredentials(chain.client, { addresses: [address], credentials: ['gov-id'], blockNumber: blockNumber + 1000n }))
    expect(error).toBeInstanceOf(BlockNotAvailableError)
    expect(error).toMatchObject({ blockNumber: blockNumber + 1000n, addresses: [address], code: 'BLOCK_NOT_AVAILABLE' })
  })

  it('throws BlockNotAvailableError when the node has pruned the state (missing trie node)', async () => {
    const addresses = [freshAddress(), freshAddress()]
    const { blockNumber } = await chain.mine()
    const provider = instrument(chain.provider, ({ method }) =>
      method === 'eth_call' ? Object.assign(new Error('missing trie node 7a5b3e... (path )'), { code: -32000 }) : undefined,
    )
    const error = await rejection(verifyCredentials(provider, { addresses, credentials: ['phone'], blockNumber }))
    expect(error).toBeInstanceOf(BlockNotAvailableError)
    expect(error).toMatchObject({ blockNumber, addresses, chainId: 10 })
    expect((error as BlockNotAvailableError).shortMessage).toBe(`The node cannot serve state at block ${blockNumber}.`)
  })

  it('throws ChainReadError naming the addresses of the failed request only', async () => {
    const addresses = Array.from({ length: 6 }, () => freshAddress())
    const { blockNumber } = await chain.mine()
    let calls = 0
    const provider = instrument(chain.provider, ({ method }) => (method === 'eth_call' && ++calls === 2 ? new Error('upstream connect error') : undefined))
    const error = await rejection(verifyCredentials(provider, { addresses, credentials: ['biometrics'], blockNumber, batchSize: 3, concurrency: 1 }))
    expect(error).toBeInstanceOf(ChainReadError)
    expect(error).not.toBeInstanceOf(BlockNotAvailableError)
    expect(error).toMatchObject({ blockNumber, addresses: addresses.slice(3), code: 'CHAIN_READ_FAILED' })
    expect((error as ChainReadError).details).toContain('upstream connect error')
  })

  it('throws ChainReadError when the block header read fails (pinning latest, or clean hands at a block)', async () => {
    const address = freshAddress()
    const provider = instrument(chain.provider, ({ method }) => (method === 'eth_getBlockByNumber' ? new Error('503 Service Unavailable') : undefined))
    const latest = await rejection(verifyCredentials(provider, { addresses: [address], credentials: ['gov-id'] }))
    expect(latest).toBeInstanceOf(ChainReadError)
    expect(latest).toMatchObject({ blockNumber: 'latest', addresses: [address] })
    const cleanHands = await rejection(
      verifyCredentials(provider, { addresses: [address], credentials: ['clean-hands'], blockNumber: 1n, attestationIndex: indexOf({}) }),
    )
    expect(cleanHands).toBeInstanceOf(ChainReadError)
    expect(cleanHands).toMatchObject({ blockNumber: 1n, addresses: [address] })
  })

  it('prints the block, the chain and the addresses in the message', async () => {
    const address = '0x52908400098527886e0f7030069857d2e4169ee7'
    const provider = instrument(chain.provider, ({ method }) =>
      method === 'eth_call' ? Object.assign(new Error('header not found'), { code: -32000 }) : undefined,
    )
    const error = (await rejection(verifyCredentials(provider, { addresses: [address], credentials: ['gov-id'], blockNumber: 1n }))) as BlockNotAvailableError
    expect(error.metaMessages).toEqual([
      'Chain: 10',
      'Block: 1',
      'Addresses (1): 0x52908400098527886e0f7030069857d2e4169ee7',
      'Call: Multicall3(0xcA11bde05977b3631167028862bE2a173976CA11).aggregate3 with 1 call(s), first getSBT(0x52908400098527886e0f7030069857d2e4169ee7, 0x729d660e1c02e4e419745e617d643f897a538673ccf1051e093bbfa58b0a120b)',
    ])
    expect(error.shortMessage).toBe('The node cannot serve state at block 1.')
  })
})

describe('misconfigured or inconsistent contracts fail loudly', () => {
  it('throws when the Hub address has no code (a success with no data is not "none")', async () => {
    const error = await rejection(
      verifyCredentials(chain.client, { addresses: [freshAddress()], credentials: ['gov-id'], network: 'optimism', constants: { contracts: { hub: freshAddress() } } }),
    )
    expect(error).toBeInstanceOf(ChainReadError)
    expect((error as ChainReadError).details).toContain('is the Hub deployed at this address')
  })

  it('throws when Multicall3 has no code at its address', async () => {
    const error = await rejection(
      verifyCredentials(chain.client, { addresses: [freshAddress()], credentials: ['gov-id'], network: 'optimism', constants: { contracts: { multicall3: freshAddress() } } }),
    )
    expect(error).toBeInstanceOf(ChainReadError)
    expect((error as ChainReadError).details).toContain('Multicall3 has no code')
  })

  it('throws when a permanent store is missing (its read is not a "no")', async () => {
    const error = await rejection(
      verifyCredentials(chain.client, { addresses: [freshAddress()], credentials: ['phone'], network: 'optimism', constants: { contracts: { phoneLegacyStore: freshAddress() } } }),
    )
    expect(error).toBeInstanceOf(ChainReadError)
    expect((error as ChainReadError).details).toContain('is the store deployed')
  })

  it('throws when getSBT reverts for an SBT that sbtOwners shows live', async () => {
    const hub = await chain.deploy('InconsistentHub')
    const address = freshAddress()
    const error = await rejection(
      verifyCredentials(chain.client, { addresses: [address], credentials: ['biometrics'], network: 'optimism', constants: { contracts: { hub } } }),
    )
    expect(error).toBeInstanceOf(ChainReadError)
    expect(error).toMatchObject({ addresses: [address] })
    expect((error as ChainReadError).details).toContain('getSBT reverted, but sbtOwners shows a live SBT')
  })

  it('judges a garbled index row malformed and keeps the batch: the other rows and voters are judged as usual', async () => {
    const [garbled, noId, honest] = [freshAddress(), freshAddress(), freshAddress()]
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.attest({ attestationId: 4242n, recipient: honest, validUntil: timestamp + day })
    // A row of the wrong shape (as the index client keeps it), and a passing row with no id to confirm.
    const malformed = { malformed: true as const, row: { fullSchemaId: 8 }, issues: ['fullSchemaId: Invalid input: expected string, received number'] }
    const { results } = await verifyCredentials(chain.client, {
      addresses: [garbled, noId, honest],
      credentials: ['clean-hands'],
      blockNumber,
      attestationIndex: indexOf({
        [garbled]: [malformed],
        [noId]: [{ ...goodRow(1n, timestamp + day), attestationId: undefined }],
        [honest]: [malformed, goodRow(4242n, timestamp + day)],
      }),
    })
    expect(results[garbled]?.['clean-hands']).toMatchObject({ valid: false, reason: 'malformed' })
    expect(results[noId]?.['clean-hands']).toMatchObject({ valid: false, reason: 'malformed' })
    expect(results[honest]?.['clean-hands']).toMatchObject({ valid: true, reason: 'valid' })
  })

  it('passes the attestation index failure through', async () => {
    const failure = new Error('index down')
    const error = await rejection(
      verifyCredentials(chain.client, {
        addresses: [freshAddress()],
        credentials: ['clean-hands'],
        attestationIndex: { getAttestations: () => Promise.reject(failure) },
      }),
    )
    expect(error).toBe(failure)
  })
})

describe('networks', () => {
  it('refuses to read a chain other than the network asked for', async () => {
    const error = await rejection(verifyCredentials(chain.client, { addresses: [freshAddress()], credentials: ['gov-id'], network: 84532, allowSandbox: true }))
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect((error as InvalidParameterError).details).toContain('connected to chain 10')
  })

  it('asks the node and detects the wrong chain whenever the client does not declare its chain', async () => {
    const other = await TestChain.start({ chainId: 31337, layout: 'deployed' })
    const server = await serveJsonRpc(other.provider)
    const clients: [string, () => Parameters<typeof verifyCredentials>[0]][] = [
      ['an EIP-1193 provider', () => other.provider],
      ['a viem client without a chain', () => other.client],
      ['an ethers v5 provider without a network', () => new ethers5Providers.StaticJsonRpcProvider(server.url)],
      ['an ethers v6 provider that has not detected its network', () => new JsonRpcProvider(server.url)],
    ]
    try {
      for (const [name, makeClient] of clients) {
        const client = makeClient()
        try {
          server.reset()
          const error = await rejection(verifyCredentials(client, { addresses: [freshAddress()], credentials: ['gov-id'], network: 'optimism', blockNumber: 1n }))
          expect(error, name).toBeInstanceOf(InvalidParameterError)
          expect((error as InvalidParameterError).details, name).toContain('connected to chain 31337')
        } finally {
          if (client instanceof JsonRpcProvider) client.destroy()
        }
      }
      // The HTTP clients asked the node (ethers v5 may have detected its network on its own first).
      expect(server.stats.methods.eth_chainId).toBeGreaterThanOrEqual(1)
    } finally {
      await server.close()
    }
  })

  it('takes a declared chain as the client\'s word, and refuses one declared for another network before any request', async () => {
    const provider = instrument(chain.provider)
    const declaredOther = createPublicClient({ chain: baseSepolia, transport: custom(provider, { retryCount: 0 }) })
    const error = await rejection(verifyCredentials(declaredOther, { addresses: [freshAddress()], credentials: ['gov-id'], network: 'optimism' }))
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect((error as InvalidParameterError).details).toContain('declared for chain 84532')
    expect(provider.total()).toBe(0)
    const ethers5 = new ethers5Providers.StaticJsonRpcProvider('http://127.0.0.1:9', 84532)
    const fromEthers = await rejection(verifyCredentials(ethers5, { addresses: [freshAddress()], credentials: ['gov-id'], network: 'optimism' }))
    expect((fromEthers as InvalidParameterError).details).toContain('declared for chain 84532')
  })

  it('uses its own contract addresses on a test chain (overrides), and refuses an unknown chain without them', async () => {
    const local = await TestChain.start({ chainId: 31337, layout: 'deployed' })
    const address = freshAddress()
    const { timestamp } = await local.latest()
    await local.issueSBT(address, 'phone', { expiry: timestamp + day })
    const { blockNumber } = await local.attest({ attestationId: 9n, recipient: address, validUntil: timestamp + day })
    expect(local.contracts.hub).not.toBe(optimismNetwork.contracts.hub)

    const unknown = await rejection(verifyCredentials(local.client, { addresses: [address], credentials: ['phone'] }))
    expect(unknown).toBeInstanceOf(UnsupportedNetworkError)

    const { results, network, chainId } = await verifyCredentials(local.client, {
      addresses: [address],
      credentials: ['phone', 'clean-hands'],
      blockNumber,
      network: 'optimism',
      constants: { name: 'local', chainId: 31337, contracts: local.contracts },
      attestationIndex: indexOf({ [address]: [goodRow(9n, timestamp + day)] }),
    })
    expect({ network, chainId }).toEqual({ network: 'local', chainId: 31337 })
    expect(results[address]).toMatchObject({ phone: { valid: true, reason: 'valid' }, 'clean-hands': { valid: true, reason: 'valid' } })
    expect(results[address]?.phone.evidence[0]).toMatchObject({ contract: local.contracts.hub })
  })

  it('reads the Base Sepolia sandbox only with allowSandbox, and marks the results', async () => {
    const sandbox = await TestChain.start({ chainId: 84532 })
    const address: Address = freshAddress()
    // What the sandbox hands out: empty public values and expiry 2^256-1.
    await sandbox.setSBT(address, baseSepoliaNetwork.circuitIds['gov-id'], 2n ** 256n - 1n, [])
    const refused = await rejection(verifyCredentials(sandbox.client, { addresses: [address], credentials: ['gov-id'] }))
    expect(refused).toBeInstanceOf(InvalidParameterError)
    expect((refused as InvalidParameterError).parameter).toBe('allowSandbox')

    const cleanHands = await rejection(
      verifyCredentials(sandbox.client, { addresses: [address], credentials: ['clean-hands'], allowSandbox: true, attestationIndex: indexOf({}) }),
    )
    expect(cleanHands).toBeInstanceOf(InvalidParameterError)

    const response = await verifyCredentials(sandbox.client, { addresses: [address], credentials: ['gov-id'], allowSandbox: true })
    expect(response).toMatchObject({ sandbox: true, network: 'base-sepolia', chainId: 84532 })
    // Empty public values carry no issuer: not valid even when read.
    expect(response.results[address]?.['gov-id']).toMatchObject({ valid: false, reason: 'wrong-issuer' })
  })
})

describe('an SBT answered for the wrong subject', () => {
  // Human ID's own checks never read publicValues[1] (field notes §4): getSBT answers for its
  // subject, and [1] holding another address is no reason for 0 (issue #27). A node that answers
  // falsely can forge any value; the RPC is trusted for every read.
  it('is judged by Human ID\'s conditions only: publicValues[1] naming another holder does not make it invalid', async () => {
    const [subject, holder] = [freshAddress(), freshAddress()]
    const { timestamp } = await chain.latest()
    const expiry = timestamp + day
    const circuitId = optimismNetwork.circuitIds['gov-id']
    // The Hub answers for `subject` with public values minted for `holder`.
    await chain.setSBT(subject, circuitId, expiry, [expiry, BigInt(holder), 123456789n, 1n, optimismNetwork.issuers['gov-id']])
    await chain.setSBT(holder, circuitId, expiry, [expiry, BigInt(holder), 123456789n, 1n, optimismNetwork.issuers['gov-id']])
    const { blockNumber } = await chain.mine(timestamp + 10n)
    const { results } = await verifyCredentials(chain.client, { addresses: [subject, holder], credentials: ['gov-id'], blockNumber })
    expect(results[subject]?.['gov-id']).toMatchObject({ valid: true, reason: 'valid' })
    expect(results[holder]?.['gov-id']).toMatchObject({ valid: true, reason: 'valid' })
  })
})
