/**
 * The benchmark's anvil node (anvil-node.ts): it starts on a free loopback port, answers, takes the
 * harness's set-up (hardhat_setCode, transactions, evm_mine), the verifier reads it over HTTP, and
 * it stops. Skipped when this platform has no `@foundry-rs/anvil` binary package installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, http } from 'viem'
import { optimism } from 'viem/chains'
import { verifyCredentials } from '../../src/verify/credentials/index.js'
import { anvilBinary, startAnvil, type AnvilNode } from './anvil-node.js'
import { TestChain } from './harness.js'
import { freshAddress } from './helpers.js'

const binary = anvilBinary()

describe.skipIf(!binary)('the anvil node', () => {
  let node: AnvilNode
  let chain: TestChain

  beforeAll(async () => {
    node = await startAnvil({ chainId: 10 })
    chain = await TestChain.attach(node.provider)
  })

  afterAll(async () => {
    await node?.close()
  })

  it('listens on 127.0.0.1 and answers', async () => {
    expect(node.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await node.provider.request({ method: 'eth_chainId' })).toBe('0xa')
  })

  it('takes the set-up of the harness, and the verifier reads it at a past block', async () => {
    const [valid, revoked] = [freshAddress(), freshAddress()]
    const { timestamp } = await chain.latest()
    await chain.issueSBT(valid, 'phone', { expiry: timestamp + 86_400n })
    await chain.issueSBT(revoked, 'phone', { expiry: timestamp + 86_400n })
    const snapshot = await chain.mine()
    await chain.revokeSBT(revoked, 'phone')
    expect((await chain.mine()).blockNumber).toBeGreaterThan(snapshot.blockNumber)
    const client = createPublicClient({ chain: optimism, transport: http(node.url) })
    const atSnapshot = await verifyCredentials(client, { addresses: [valid, revoked], credentials: ['phone'], blockNumber: snapshot.blockNumber })
    expect(atSnapshot.results[valid]?.phone).toMatchObject({ valid: true, reason: 'valid' })
    expect(atSnapshot.results[revoked]?.phone).toMatchObject({ valid: true, reason: 'valid' })
    const latest = await verifyCredentials(client, { addresses: [revoked], credentials: ['phone'] })
    expect(latest.results[revoked]?.phone?.valid).toBe(false)
  })

  it('stops when closed', async () => {
    const other = await startAnvil()
    const { pid } = other
    await other.close()
    expect(() => process.kill(pid, 0)).toThrow()
  })
})
