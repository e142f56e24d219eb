/**
 * The benchmark's node process: an EDR node in a child process, served over HTTP JSON-RPC, with its
 * counters and added delay; the verifier reads it like any local node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, http } from 'viem'
import { optimism } from 'viem/chains'
import { verifyCredentials } from '../../src/verify/credentials/index.js'
import { TestChain } from './harness.js'
import { freshAddress } from './helpers.js'
import { startNodeProcess, type NodeProcess } from './node-process.js'

let node: NodeProcess
let chain: TestChain

beforeAll(async () => {
  node = await startNodeProcess({ chainId: 10 })
  chain = await TestChain.attach(node.provider)
})

afterAll(async () => {
  await node?.close()
})

describe('the node process', () => {
  it('serves the node over HTTP, counts what it serves, and the verifier reads it', async () => {
    const [valid, none] = [freshAddress(), freshAddress()]
    const { timestamp } = await chain.latest()
    const { blockNumber } = await chain.issueSBT(valid, 'phone', { expiry: timestamp + 86_400n })
    await node.reset()
    const client = createPublicClient({ chain: optimism, transport: http(node.url) })
    const { results } = await verifyCredentials(client, { addresses: [valid, none], credentials: ['phone'], blockNumber })
    expect(results[valid]?.phone).toMatchObject({ valid: true, reason: 'valid' })
    expect(results[none]?.phone).toMatchObject({ valid: false, reason: 'none' })
    expect(await node.stats()).toEqual({ httpRequests: 2, rpcCalls: 2, methods: { eth_call: 2 } })
    await node.reset()
    expect(await node.stats()).toEqual({ httpRequests: 0, rpcCalls: 0, methods: {} })
  })

  it('passes node errors through as JSON-RPC errors', async () => {
    const { blockNumber } = await chain.latest()
    await expect(node.provider.request({ method: 'eth_getBalance', params: [freshAddress(), `0x${(blockNumber + 100n).toString(16)}`] })).rejects.toMatchObject({
      code: -32000,
    })
  })

  it('exits when closed', async () => {
    const other = await startNodeProcess()
    const { pid } = other
    await other.close()
    expect(() => process.kill(pid, 0)).toThrow()
  })
})
