/**
 * An in-process EVM for chain tests: an EDR provider (`createEdrProvider` of the local chain,
 * src/devchain/edr.ts) with one funded, unlocked test account. The local chain's contracts
 * (precompiled, src/devchain/artifacts.ts) are placed at the Optimism addresses with
 * `hardhat_setCode`, or deployed at fresh addresses for a test chain that passes its own constants;
 * test-only contracts come from test/contracts/. Multicall3 always sits at its canonical address.
 */
import {
  createPublicClient,
  custom,
  encodeAbiParameters,
  encodeFunctionData,
  hexToBigInt,
  numberToHex,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import type { Eip1193ProviderLike } from '../../src/chain/provider.js'
import { baseSepoliaNetwork, multicall3Address, optimismNetwork, type HumanIdCircuit, type HumanIdIssuerCircuit } from '../../src/chain/constants.js'
import { createEdrProvider as createEdr, ProviderRpcError } from '../../src/devchain/edr.js'
import { compileContracts, type CompiledContract, type ContractName } from './compile.js'

/** An EIP-1193 provider (what the EDR provider and the HTTP client of a node process are). */
export type Eip1193 = Eip1193ProviderLike

/** A JSON-RPC error answered by the node (code, message, data). */
export { ProviderRpcError as NodeRpcError }

/** The addresses of the test contracts on one chain. */
export type TestContracts = {
  hub: Address
  govIdLegacyStore: Address
  phoneLegacyStore: Address
  signProtocol: Address
  multicall3: Address
}

/** A mined block: its number and timestamp. */
export type MinedBlock = { blockNumber: bigint; timestamp: bigint }

/** How an EDR node is created: chain id, block gas limit, genesis time. */
export type EdrNodeOptions = {
  /** Default 10 (Optimism), so the built-in constants apply unchanged. */
  chainId?: number
  /** Block gas limit; raise it for bulk set-up (the bench). Default 100M. */
  blockGasLimit?: number
  /** Genesis time; default 2025-01-01T00:00:00Z. */
  initialDate?: string
}

export type StartChainOptions = EdrNodeOptions & {
  /** `canonical`: the contracts sit at the built-in addresses of the chain; `deployed`: fresh addresses. Default canonical. */
  layout?: 'canonical' | 'deployed'
}

/** Genesis time of every test chain (fixed, so tests never depend on the wall clock). */
export const genesisDate = '2025-01-01T00:00:00Z'

/** The funded, unlocked account of every test chain: hardhat's well-known first test key (test only). */
const testAccountKey: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

/** Creates an EDR provider with the test account funded and unlocked; automine. */
export function createEdrProvider(options: EdrNodeOptions = {}): Promise<Eip1193> {
  return createEdr({
    chainId: options.chainId ?? 10,
    genesisTime: Math.floor(Date.parse(options.initialDate ?? genesisDate) / 1000),
    blockGasLimit: BigInt(options.blockGasLimit ?? 100_000_000),
    genesisAccounts: [{ address: privateKeyToAddress(testAccountKey), balance: 10n ** 24n }],
    ownedAccounts: [testAccountKey],
  })
}

/**
 * A running test chain: the provider, a viem client on it, the contracts, and helpers that write
 * to the test contracts one block per write (optionally at a chosen timestamp).
 */
export class TestChain {
  private constructor(
    readonly provider: Eip1193,
    readonly client: PublicClient,
    readonly chainId: number,
    readonly account: Address,
    readonly contracts: TestContracts,
    readonly artifacts: Record<ContractName, CompiledContract>,
  ) {}

  /** Starts an in-process EDR node and sets the contracts up on it. */
  static async start(options: StartChainOptions = {}): Promise<TestChain> {
    return TestChain.attach(await createEdrProvider(options), options)
  }

  /** Sets the contracts up on a running node (in-process, or a node process over HTTP). */
  static async attach(provider: Eip1193, options: Pick<StartChainOptions, 'layout'> = {}): Promise<TestChain> {
    const artifacts = await compileContracts()
    const chainId = Number(hexToBigInt((await provider.request({ method: 'eth_chainId' })) as Hex))
    const client = createPublicClient({ transport: custom(provider, { retryCount: 0 }) })
    const [account] = (await provider.request({ method: 'eth_accounts' })) as Address[]
    if (!account) throw new Error('the node has no unlocked account')

    await setCode(provider, multicall3Address, artifacts.Multicall3.deployedBytecode)
    let contracts: TestContracts
    if ((options.layout ?? 'canonical') === 'canonical') {
      const network = chainId === baseSepoliaNetwork.chainId ? baseSepoliaNetwork : optimismNetwork
      contracts = {
        hub: network.contracts.hub,
        // Base Sepolia has no permanent stores or Sign Protocol: place them at the Optimism addresses
        // anyway (nothing reads them there).
        govIdLegacyStore: optimismNetwork.contracts.govIdLegacyStore as Address,
        phoneLegacyStore: optimismNetwork.contracts.phoneLegacyStore as Address,
        signProtocol: optimismNetwork.contracts.signProtocol as Address,
        multicall3: multicall3Address,
      }
      await setCode(provider, contracts.hub, artifacts.LocalHub.deployedBytecode)
      await setCode(provider, contracts.govIdLegacyStore, artifacts.LocalLegacyStore.deployedBytecode)
      await setCode(provider, contracts.phoneLegacyStore, artifacts.LocalLegacyStore.deployedBytecode)
      await setCode(provider, contracts.signProtocol, artifacts.LocalSignProtocol.deployedBytecode)
      await setCode(provider, optimismNetwork.contracts.passportDecoder as Address, artifacts.LocalPassportDecoder.deployedBytecode)
    } else {
      contracts = {
        hub: await deploy(provider, account, artifacts.LocalHub),
        govIdLegacyStore: await deploy(provider, account, artifacts.LocalLegacyStore),
        phoneLegacyStore: await deploy(provider, account, artifacts.LocalLegacyStore),
        signProtocol: await deploy(provider, account, artifacts.LocalSignProtocol),
        multicall3: multicall3Address,
      }
    }
    return new TestChain(provider, client, chainId, account, contracts, artifacts)
  }

  /** Deploys a compiled test contract at a fresh address. */
  deploy(name: ContractName): Promise<Address> {
    return deploy(this.provider, this.account, this.artifacts[name])
  }

  /** The latest block. */
  async latest(): Promise<MinedBlock> {
    const block = (await this.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { number: Hex; timestamp: Hex }
    return { blockNumber: hexToBigInt(block.number), timestamp: hexToBigInt(block.timestamp) }
  }

  /** Mines one empty block, at `timestamp` when given (it must be later than the latest block's). */
  async mine(timestamp?: bigint): Promise<MinedBlock> {
    if (timestamp !== undefined) await this.provider.request({ method: 'evm_setNextBlockTimestamp', params: [numberToHex(timestamp)] })
    await this.provider.request({ method: 'evm_mine', params: [] })
    return this.latest()
  }

  /** Sends one transaction to a test contract; it is mined in its own block (at `timestamp` when given; `gas` or estimated). */
  async write(
    to: Address,
    contract: ContractName,
    functionName: string,
    args: readonly unknown[],
    timestamp?: bigint,
    gas?: bigint,
  ): Promise<MinedBlock> {
    if (timestamp !== undefined) await this.provider.request({ method: 'evm_setNextBlockTimestamp', params: [numberToHex(timestamp)] })
    const data = encodeFunctionData({ abi: this.artifacts[contract].abi as Abi, functionName, args })
    const transaction = { from: this.account, to, data, ...(gas === undefined ? {} : { gas: numberToHex(gas) }) }
    const hash = (await this.provider.request({ method: 'eth_sendTransaction', params: [transaction] })) as Hex
    const receipt = (await this.provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: Hex; blockNumber: Hex } | null
    if (!receipt || receipt.status !== '0x1') throw new Error(`${contract}.${functionName} failed`)
    const block = (await this.provider.request({ method: 'eth_getBlockByNumber', params: [receipt.blockNumber, false] })) as { timestamp: Hex }
    return { blockNumber: hexToBigInt(receipt.blockNumber), timestamp: hexToBigInt(block.timestamp) }
  }

  /** Sets an SBT on the Hub with explicit public values. */
  setSBT(subject: Address, circuitId: Hex, expiry: bigint, publicValues: readonly bigint[], timestamp?: bigint): Promise<MinedBlock> {
    return this.write(this.contracts.hub, 'LocalHub', 'setSBT', [subject, circuitId, expiry, publicValues], timestamp)
  }

  /**
   * Sets the SBT a real issuer would: publicValues [expiry, subject, actionId, nullifier, issuer],
   * with the built-in circuit id and issuer unless given.
   */
  issueSBT(
    subject: Address,
    circuit: HumanIdIssuerCircuit,
    options: { expiry: bigint; actionId?: bigint; issuer?: bigint; circuitId?: Hex; timestamp?: bigint },
  ): Promise<MinedBlock> {
    const circuitId = options.circuitId ?? optimismNetwork.circuitIds[circuit]
    const issuer = options.issuer ?? optimismNetwork.issuers[circuit]
    const publicValues = [options.expiry, hexToBigInt(subject), options.actionId ?? 123456789n, 0xabcn, issuer]
    return this.setSBT(subject, circuitId, options.expiry, publicValues, options.timestamp)
  }

  revokeSBT(subject: Address, circuit: HumanIdCircuit, timestamp?: bigint): Promise<MinedBlock> {
    return this.write(this.contracts.hub, 'LocalHub', 'revokeSBT', [subject, optimismNetwork.circuitIds[circuit]], timestamp)
  }

  setLegacyUnique(store: 'gov-id' | 'phone', user: Address, actionId: bigint, value = true): Promise<MinedBlock> {
    const address = store === 'gov-id' ? this.contracts.govIdLegacyStore : this.contracts.phoneLegacyStore
    return this.write(address, 'LocalLegacyStore', 'setIsUniqueForAction', [user, actionId, value])
  }

  /** Stores a Sign Protocol attestation; `recipient` is ABI-encoded as a string into recipients[0]. */
  attest(options: {
    attestationId: bigint
    recipient: string
    validUntil: bigint
    schemaId?: bigint
    attester?: Address
    timestamp?: bigint
  }): Promise<MinedBlock> {
    const recipients = [encodeAbiParameters([{ type: 'string' }], [options.recipient])]
    return this.write(
      this.contracts.signProtocol,
      'LocalSignProtocol',
      'attest',
      [options.attestationId, options.schemaId ?? 8n, options.attester ?? optimismNetwork.cleanHands.attester, options.validUntil, recipients],
      options.timestamp,
    )
  }

  revokeAttestation(attestationId: bigint, timestamp?: bigint): Promise<MinedBlock> {
    return this.write(this.contracts.signProtocol, 'LocalSignProtocol', 'revoke', [attestationId], timestamp)
  }
}

async function setCode(provider: Eip1193, address: Address, code: Hex): Promise<void> {
  await provider.request({ method: 'hardhat_setCode', params: [address, code] })
}

async function deploy(provider: Eip1193, from: Address, artifact: CompiledContract): Promise<Address> {
  const hash = (await provider.request({ method: 'eth_sendTransaction', params: [{ from, data: artifact.bytecode }] })) as Hex
  const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Address | null } | null
  if (!receipt?.contractAddress) throw new Error('deployment failed')
  return receipt.contractAddress
}
