/**
 * `personhood serve --chain`: the reference server and a local chain started from the same state,
 * the chain's JSON-RPC URL printed with the server's, both stopped together.
 */
import { createPublicClient, http } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { describeServe } from '../../src/cli/serve.js'
import { startServe, type RunningServe } from '../../src/server/start.js'
import { createAttestationIndexClient } from '../../src/clients/attestation-index/index.js'
import { createHumanIdClient } from '../../src/clients/human-id/index.js'
import { LocalChainError } from '../../src/errors/index.js'
import { verifyCredentials } from '../../src/verify/credentials/index.js'

const worldNow = '2025-06-01T00:00:00.000Z'
const now = () => Date.parse(worldNow) + 3_600_000
const running: RunningServe[] = []

afterEach(async () => {
  for (const entry of running.splice(0)) await entry.close()
})

describe('serve --chain', () => {
  it('prints the chain URL, whose answers are the server\'s for the demo accounts', async () => {
    const serve = await startServe({ port: 0, worldNow, wallets: 60, now, chain: { port: 0 } })
    running.push(serve)
    const rpcUrl = serve.chain!.rpcUrl!
    expect(describeServe(serve).join('\n')).toMatch(new RegExp(`Local chain, JSON-RPC \\(chain 10, optimism\\) +${rpcUrl}`))

    const client = createPublicClient({ transport: http(rpcUrl) })
    const snapshot = await client.getBlockNumber()
    const accounts = serve.app.context.store.state.demoAccounts.map((account) => account.address)
    const attestationIndex = createAttestationIndexClient({ baseUrl: serve.urls.attestationIndex })
    const { results } = await verifyCredentials(client, { addresses: accounts, credentials: ['gov-id', 'clean-hands'], blockNumber: snapshot, attestationIndex })
    const votes = await createHumanIdClient({ baseUrl: serve.urls.humanId }).getVotingStrategyScores({
      credential: 'gov-id',
      network: 10,
      snapshot,
      addresses: accounts,
    })
    expect(Object.fromEntries(accounts.map((address) => [address, results[address]!['gov-id'].valid ? 1 : 0]))).toEqual(votes)
    const story = (name: string) => serve.app.context.store.state.demoAccounts.find((account) => account.story === name)!.address
    expect(results[story('gov-id-verified')]!['gov-id'].valid).toBe(true)
    expect(results[story('clean-hands-only')]!['clean-hands'].valid).toBe(true)
    expect(results[story('nothing')]!['clean-hands'].valid).toBe(false)

    await serve.close()
    await expect(client.getBlockNumber({ cacheTime: 0 })).rejects.toThrow()
  })

  it('names the chain port when it is taken', async () => {
    const first = await startServe({ port: 0, worldNow, wallets: 60, now, chain: { port: 0 } })
    running.push(first)
    const port = Number(new URL(first.chain!.rpcUrl!).port)
    const second = startServe({ port: 0, worldNow, wallets: 60, now, chain: { port } })
    await expect(second).rejects.toThrow(LocalChainError)
    await expect(second).rejects.toThrow('the port is in use')
  })
})
