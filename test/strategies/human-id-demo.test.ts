/**
 * The score-api folder `strategies/human-id` on the demo world: the reference server and its local
 * chain (`personhood serve --seed demo`), reached as score-api reaches the real ones, over HTTP: an
 * ethers v5 StaticJsonRpcProvider for Optimism. Every demo voter's verdict on every credential the
 * folder reads (the three SBTs; clean hands is the library's and the strategy server's) equals the
 * library's `verifyCredentials` at the same block, and the call costs what the README says: one
 * eth_call, nothing from the attestation index.
 */
import { StaticJsonRpcProvider } from '@ethersproject/providers'
import { createPublicClient, http, type Address } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startServe } from '../../src/server/start.js'
import { verifyCredentials } from '../../src/verify/credentials/index.js'
import { layHumanIdFolder } from './human-id-layout.js'
import { conformanceWorldNow } from './world-server.js'

const credentials = ['gov-id', 'phone', 'biometrics'] as const
let running: Awaited<ReturnType<typeof startServe>>
let layout: Awaited<ReturnType<typeof layHumanIdFolder>>
const requests = { rpc: [] as string[], index: 0 }

beforeAll(async () => {
  running = await startServe({ port: 0, seed: 'demo', worldNow: conformanceWorldNow, now: () => Date.parse(conformanceWorldNow), chain: { port: 0 } })
  const rpcUrl = running.chain!.rpcUrl!
  ;(globalThis as Record<string, unknown>).__humanIdDemo = {
    provider: () => {
      const provider = new StaticJsonRpcProvider(rpcUrl, 10)
      provider.on('debug', (event: { action: string; request?: { method: string } }) => {
        if (event.action === 'request' && event.request) requests.rpc.push(event.request.method)
      })
      return provider
    },
    // The folder reads nothing off chain: a fetch is counted and refused.
    fetch: (url: string) => {
      requests.index++
      return Promise.reject(new Error(`human-id reads nothing off chain, but fetched ${url}`))
    },
  }
  layout = await layHumanIdFolder(
    'human-id-demo',
    [
      '// score-api utils as far as human-id needs them: the demo world over HTTP',
      'const demo = (globalThis as any).__humanIdDemo;',
      'export const getProvider = (network: string) => demo.provider();',
      'export const customFetch = (url: string) => demo.fetch(url);',
      'export const getSnapshots = () => { throw new Error("not a test of getSnapshots"); };',
      '',
    ].join('\n'),
  )
})

afterAll(async () => {
  delete (globalThis as Record<string, unknown>).__humanIdDemo
  await layout?.remove()
  await running?.close()
})

it('every demo voter: the folder and verifyCredentials agree at the same block, 500 voters with the three SBT credentials for 1 eth_call and no index page', async () => {
  const { state } = running.app.context.store
  // Everyone the world gave a Human ID credential or a clean-hands attestation, the demo accounts,
  // and as many stamp holders with nothing on chain: 500 voters at most.
  const holders = [
    ...state.demoAccounts.map((account) => account.address.toLowerCase()),
    ...state.verifications.filter((verification) => verification.network === 'optimism').map((verification) => verification.address),
    ...state.attestations.map((row) => row.address.toLowerCase()),
  ]
  const voters = [...new Set([...holders, ...Object.keys(state.stamps).map((address) => address.toLowerCase())])].slice(0, 500) as Address[]
  const block = running.chain!.blockAt(conformanceWorldNow)
  expect(voters).toHaveLength(500)
  const { verifyHumans } = await layout.load()
  const provider = ((globalThis as Record<string, unknown>).__humanIdDemo as { provider: () => StaticJsonRpcProvider }).provider()
  requests.rpc = []
  requests.index = 0
  const ours = await verifyHumans('10', provider, voters, { credentials }, Number(block))
  expect({ rpc: requests.rpc, index: requests.index }).toEqual({ rpc: ['eth_call'], index: 0 })

  const theirs = await verifyCredentials(createPublicClient({ transport: http(running.chain!.rpcUrl!) }), {
    network: 10,
    addresses: voters,
    credentials: [...credentials],
    blockNumber: block,
  })
  const simplify = (entry: Record<string, { valid: boolean; reason: string }>) =>
    Object.fromEntries(Object.entries(entry).map(([credential, verdict]) => [credential, `${verdict.valid} ${verdict.reason}`]))
  expect(Object.fromEntries(Object.entries(ours.voters).map(([address, voter]) => [address.toLowerCase(), simplify(voter.credentials)]))).toEqual(
    Object.fromEntries(Object.entries(theirs.results).map(([address, entry]) => [address, simplify(entry)])),
  )
  // The world holds every kind of answer, so the comparison is not of zeros alone.
  const reasons = new Set(Object.values(ours.voters).flatMap((voter) => Object.values(voter.credentials).map((verdict) => verdict.reason)))
  expect(reasons.has('valid')).toBe(true)
  expect([...reasons].sort()).toEqual(['expired', 'legacy', 'none', 'revoked', 'valid', 'wrong-action', 'wrong-issuer'])
  expect(ours.block).toEqual({ chainId: 10, number: Number(block), timestamp: Number(theirs.blockTimestamp) })
}, 120_000)
