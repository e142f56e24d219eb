/**
 * A token on a chain of its own, for strategies that wrap a token vote: an in-process EVM (EDR)
 * with Multicall3 at its canonical address, `contracts/TestToken.sol` (a plain ERC-20, compiled
 * here with the project's solc) deployed by a real transaction, and balances minted by real
 * transactions at given times. Blocks keep an exact clock (genesis + n * blockTimeSeconds), so a
 * snapshot time names one block; a block is mined after the last mint, so every time before it has
 * a next block.
 *
 * And `erc20BalanceOf`: an inner strategy in score-api's module shape reading `balanceOf` at the
 * snapshot through Multicall3, as score-api's `erc20-balance-of` does (`params: { address,
 * decimals }`, the balance in token units as a float).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createPublicClient, custom, encodeDeployData, encodeFunctionData, erc20Abi, formatUnits, getAddress, numberToHex, type Abi, type Address, type Hex } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import type { BlockClock } from '../../src/chain/block-at-time.js'
import type { Eip1193ProviderLike } from '../../src/chain/provider.js'
import { localChainArtifacts } from '../../src/devchain/artifacts.js'
import { createEdrProvider } from '../../src/devchain/edr.js'
import { compileSolidity } from '../../scripts/contracts.js'

/** Multicall3's address on every chain. */
export const multicall3Address: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'

/** A key only tests use (the deployer and minter). */
const ownerKey: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const owner = privateKeyToAddress(ownerKey)

let compiled: Promise<{ abi: Abi; bytecode: Hex }> | undefined

/** TestToken.sol, compiled once per process. */
function testToken(): Promise<{ abi: Abi; bytecode: Hex }> {
  compiled ??= (async () => {
    const source = await readFile(join(import.meta.dirname, 'contracts', 'TestToken.sol'), 'utf8')
    return compileSolidity({ 'TestToken.sol': source }).TestToken!
  })()
  return compiled
}

/** One mint: `amount` base units to `to`, in the first block at or after `at` (Unix seconds). */
export type Mint = { to: Address; amount: bigint; at: number }

export type TokenChain = {
  chainId: number
  provider: Eip1193ProviderLike
  token: Address
  clock: BlockClock
  /** The last block at or before a time (Unix seconds). */
  blockAt(seconds: number): bigint
  /** JSON-RPC requests answered so far, by method. */
  requests: Record<string, number>
}

/**
 * Starts a chain with a deployed TestToken and `mints` applied in time order.
 *
 * @throws when a transaction fails (the chain is then not what the test believes).
 */
export async function startTokenChain(parameters: {
  chainId: number
  genesisTime: number
  blockTimeSeconds: number
  decimals: number
  mints: readonly Mint[]
  /**
   * Times (Unix seconds) whose block will be read: each gets a transaction (a mint of 0) in the last
   * block at or before it. EDR answers calls at a block mined by `hardhat_mine` inside a gap from the
   * gap's own writes only (not even the genesis code), so a block read must be one a transaction made.
   */
  readAt?: readonly number[]
}): Promise<TokenChain> {
  const { chainId, genesisTime, blockTimeSeconds } = parameters
  const edr = await createEdrProvider({
    chainId,
    genesisTime,
    ownedAccounts: [ownerKey],
    genesisAccounts: [
      { address: owner, balance: 10n ** 24n },
      { address: multicall3Address, code: localChainArtifacts.Multicall3.deployedBytecode },
    ],
  })
  const { abi, bytecode } = await testToken()
  let tip = 0n
  const timeOf = (block: bigint) => genesisTime + Number(block) * blockTimeSeconds
  /** Sends a transaction in the first block at or after `at` (and after the tip). */
  const send = async (at: number, tx: { to?: Address; data: Hex }) => {
    let next = BigInt(Math.max(Number(tip) + 1, Math.ceil((at - genesisTime) / blockTimeSeconds)))
    if (next > tip + 1n) {
      await edr.request({ method: 'evm_setNextBlockTimestamp', params: [numberToHex(timeOf(tip + 1n))] })
      await edr.request({ method: 'hardhat_mine', params: [numberToHex(next - 1n - tip), numberToHex(blockTimeSeconds)] })
    } else next = tip + 1n
    await edr.request({ method: 'evm_setNextBlockTimestamp', params: [numberToHex(timeOf(next))] })
    const hash = (await edr.request({ method: 'eth_sendTransaction', params: [{ from: owner, gas: numberToHex(3_000_000), ...tx }] })) as Hex
    const receipt = (await edr.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: Hex; contractAddress: Address | null; blockNumber: Hex }
    if (receipt.status !== '0x1') throw new Error(`token chain ${chainId}: transaction ${hash} failed`)
    if (BigInt(receipt.blockNumber) !== next) throw new Error(`token chain ${chainId}: mined in block ${BigInt(receipt.blockNumber)}, expected ${next}`)
    tip = next
    return receipt
  }
  const marks = (parameters.readAt ?? []).map((at) => ({ to: owner, amount: 0n, at: genesisTime + Math.floor((at - genesisTime) / blockTimeSeconds) * blockTimeSeconds }))
  const mints = [...parameters.mints, ...marks].sort((a, b) => a.at - b.at)
  const deployed = await send(genesisTime + blockTimeSeconds, { data: encodeDeployData({ abi, bytecode, args: ['Test', 'TEST', parameters.decimals] }) })
  const token = getAddress(deployed.contractAddress!)
  for (const mint of mints) await send(mint.at, { to: token, data: encodeFunctionData({ abi, functionName: 'mint', args: [mint.to, mint.amount] }) })
  // One empty block after the last mint.
  await edr.request({ method: 'evm_setNextBlockTimestamp', params: [numberToHex(timeOf(tip + 1n))] })
  await edr.request({ method: 'hardhat_mine', params: ['0x1'] })
  tip += 1n
  const requests: Record<string, number> = {}
  return {
    chainId,
    token,
    clock: { anchor: { blockNumber: 0n, timestamp: BigInt(genesisTime) }, blockTimeSeconds, exact: true },
    blockAt: (seconds) => BigInt(Math.floor((seconds - genesisTime) / blockTimeSeconds)),
    requests,
    provider: {
      request(args) {
        requests[args.method] = (requests[args.method] ?? 0) + 1
        return edr.request(args)
      },
    },
  }
}

/** score-api's `erc20-balance-of`, as a module of its registry: `params: { address, decimals }`. */
export const erc20BalanceOf = {
  async strategy(
    _space: string,
    _network: string,
    provider: Eip1193ProviderLike,
    addresses: string[],
    options: { address: Address; decimals: number },
    snapshot: number | 'latest',
  ): Promise<Record<string, number>> {
    const client = createPublicClient({ transport: custom(provider) })
    const balances = await client.multicall({
      contracts: addresses.map((address) => ({ address: options.address, abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] }) as const),
      allowFailure: false,
      multicallAddress: multicall3Address,
      ...(snapshot === 'latest' ? {} : { blockNumber: BigInt(snapshot) }),
    })
    return Object.fromEntries(addresses.map((address, index) => [getAddress(address), Number.parseFloat(formatUnits(balances[index]!, options.decimals))]))
  },
}
