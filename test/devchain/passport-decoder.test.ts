/**
 * The local chain's Passport decoder, seeded from the world's on-chain Passports: at any block,
 * `getScore(address)` answers what the push said while it stands, reverts AttestationNotFound
 * before it and after its revocation, AttestationExpired from its expiry; and the ground floor's
 * reading of those answers (src/rules/passport-onchain.ts) turns them into a score, `none` or `expired`.
 */
import { encodeFunctionData, parseAbi, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { optimismNetwork } from '../../src/chain/constants.js'
import { startLocalChain, type LocalChain } from '../../src/devchain/index.js'
import { passportDecoderAbi } from '../../src/rules/passport-decoder.js'
import { passportDecoders, readPassportDecoderAnswer, type OnchainPassport } from '../../src/rules/passport-onchain.js'
import { generateWorld } from '../../src/world/generate/index.js'

const world = generateWorld({ now: '2025-06-01T00:00:00.000Z', wallets: 200 })
const nowSec = Date.parse(world.now) / 1000
let chain: LocalChain

beforeAll(async () => {
  chain = await startLocalChain({ world, now: () => Date.parse(world.now), rpc: false })
})
afterAll(() => chain?.stop())

/** One getScore through Multicall3's aggregate3 with allowFailure, as the strategies read it. */
async function read(address: string, blockNumber: bigint): Promise<OnchainPassport> {
  const callData = encodeFunctionData({ abi: parseAbi(passportDecoderAbi), functionName: 'getScore', args: [address as Address] })
  const [result] = await chain.client.readContract({
    address: optimismNetwork.contracts.multicall3,
    abi: parseAbi(['function aggregate3((address target, bool allowFailure, bytes callData)[] calls) view returns ((bool success, bytes returnData)[] returnData)']),
    functionName: 'aggregate3',
    args: [[{ target: optimismNetwork.contracts.passportDecoder!, allowFailure: true, callData }]],
    blockNumber,
  })
  return readPassportDecoderAnswer({ success: result!.success, data: result!.returnData })
}

describe("the local chain's Passport decoder", () => {
  it('sits at the real Optimism address', () => {
    expect(optimismNetwork.contracts.passportDecoder).toBe(passportDecoders['10'])
    expect(passportDecoders['10']).toBe('0x5558D441779Eca04A329BcD6b47830D2C6607769')
  })

  it('holds voters who pushed, expired, revoked and never, each at its block', async () => {
    const head = chain.blockAt(world.now)
    const standing = world.onchainPassports.find((push) => push.revokedAt === null && push.expiresAt > nowSec)!
    const expired = world.onchainPassports.find((push) => push.revokedAt === null && push.expiresAt <= nowSec)!
    const revoked = world.onchainPassports.find((push) => push.revokedAt !== null && push.revokedAt < push.expiresAt)!
    const pushed = new Set(world.onchainPassports.map((push) => push.address))
    const never = world.wallets.find((wallet) => !pushed.has(wallet.address))!
    expect([standing, expired, revoked, never].every(Boolean)).toBe(true)
    const units = (score: string) => `${score}0`

    expect(await read(standing.address, head)).toEqual({ kind: 'scored', score: units(standing.score) })
    expect(await read(standing.address, chain.blockAt(new Date((standing.pushedAt - 2) * 1000)))).toEqual({ kind: 'none' })
    expect(await read(expired.address, head)).toEqual({ kind: 'expired', expiredAt: expired.expiresAt })
    expect(await read(expired.address, chain.blockAt(new Date((expired.expiresAt - 10) * 1000)))).toEqual({ kind: 'scored', score: units(expired.score) })
    expect(await read(revoked.address, head)).toEqual({ kind: 'none' })
    expect(await read(revoked.address, chain.blockAt(new Date((revoked.revokedAt! - 10) * 1000)))).toMatchObject({ kind: 'scored' })
    expect(await read(never.address, head)).toEqual({ kind: 'none' })
  })

  it('the passing demo account pushed a passing score 3 days ago', async () => {
    const demo = world.demoAccounts.find((account) => account.story === 'passing-stamps')!
    const answer = await read(demo.address, chain.blockAt(world.now))
    expect(answer.kind).toBe('scored')
    expect(Number((answer as { score: string }).score)).toBeGreaterThanOrEqual(20)
  })
})
