/**
 * The local chain's slices of a large reader call (src/devchain/reader-slices.ts): a call planned
 * over the slice runs as consecutive calls, each planned within it, over its voters in order, and
 * their answers join into the bytes of the whole call; any other call is left to run as sent.
 */
import { decodeAbiParameters, encodeAbiParameters, keccak256, parseAbiParameters, toHex, type Hex } from 'viem'
import { afterAll, describe, expect, test } from 'vitest'
import { optimismNetwork, universalActionId } from '../../src/chain/constants.js'
import { startLocalChain, type LocalChain } from '../../src/devchain/index.js'
import { callReaderInSlices, localReaderSliceGas } from '../../src/devchain/reader-slices.js'
import { readReaderVerdicts, readerVotersPerCall } from '../../src/verify/reader-verdicts.js'
import { generateWorld } from '../../src/world/generate/index.js'
import {
  joinReaderHalves,
  planReaderChunk,
  planReaderChunks,
  readerArgs,
  readerCode,
  readerValues,
  readerVoterBytes,
  readerVoters,
  readerZeroAddress,
  type ReaderAsk,
  type ReaderLayout,
} from '../../src/rules/reader.js'

const argTypes = parseAbiParameters(readerArgs.join(', '))
const layout: ReaderLayout = { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], expiries: true }
const ask: ReaderAsk = {
  hub: '0x2AA822e264F8cc31A2b9C22f39e5551241e94DfB',
  actionId: 123456789n,
  circuits: [
    { credential: 'gov-id', circuitId: `0x${'11'.repeat(32)}`, issuer: 7n, store: '0xdD748977BAb5782625AF1466F4C5F02Eb92Fce31' },
    { credential: 'phone', circuitId: `0x${'22'.repeat(32)}`, issuer: 8n, store: '0x0000000000000000000000000000000000000000' },
    { credential: 'biometrics', circuitId: `0x${'33'.repeat(32)}`, issuer: 9n, store: '0x0000000000000000000000000000000000000000' },
  ],
  passport: { circuitId: `0x${'44'.repeat(32)}`, issuer: 10n },
  signProtocol: '0x4e4af2a21ebf62850fD99Eb6253E1eFBb56098cD',
  schemaId: 1n,
  attester: '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd',
}
const voterAt = (n: number) => keccak256(toHex(`voter ${n}`)).slice(0, 42).toLowerCase()
const head = `${'ab'.repeat(96)}`
/** Each voter's records, and each attestation's answer, as bytes that name them. */
const recordsOf = (voter: string) => keccak256(voter as Hex).slice(2).repeat(4).slice(0, 2 * readerVoterBytes(layout))
const pairOf = (id: bigint) => id.toString(16).padStart(14, '0')

/** Each voter's Passport record (9 bytes), as bytes that name the voter. */
const passportOf = (voter: string) => keccak256(toHex(`passport ${voter}`)).slice(2, 20)

/**
 * A node that answers a reader call with the records of its voters and attestations, and their
 * Passport records when the call names Passport's decoder, noting each call.
 */
function fakeNode() {
  const calls: { voters: string[]; pairs: bigint[]; decoder: string }[] = []
  const run = async (data: Hex): Promise<Hex> => {
    const [, , voters, , pairs, decoder] = decodeAbiParameters(argTypes, `0x${data.slice(readerCode.length)}`) as unknown as [unknown, unknown, string, unknown, string, string]
    const call = { voters: [] as string[], pairs: [] as bigint[], decoder: decoder.toLowerCase() }
    for (let at = 2; at < voters.length; at += 40) call.voters.push(`0x${voters.slice(at, at + 40)}`)
    for (let at = 2; at < pairs.length; at += 20) call.pairs.push(BigInt(`0x${pairs.slice(at, at + 16)}`))
    calls.push(call)
    const passports = call.decoder === readerZeroAddress ? '' : call.voters.map(passportOf).join('')
    return `0x${head}${call.voters.map(recordsOf).join('')}${call.pairs.map(pairOf).join('')}${passports}`
  }
  return { calls, run }
}

describe('a reader call on the local chain', () => {
  test('planned near the 50M cap, it runs in slices planned within the slice, and answers the bytes of the whole call', async () => {
    // As many voters as one call holds, as the reader's client plans it.
    const voters = Array.from({ length: readerVotersPerCall(layout) - 20 }, (_, index) => voterAt(index))
    // An attestation for one voter in 25, as in the benches' worlds.
    const pairs = voters.flatMap((voter, index): [bigint, string][] => (index % 25 === 0 ? [[BigInt(1000 + index), voter]] : []))
    const chunk = planReaderChunk(layout, voters, pairs)
    expect(chunk.gas).toBeGreaterThan(45_000_000)
    expect(chunk.gas).toBeLessThanOrEqual(50_000_000)
    const data = `${readerCode}${encodeAbiParameters(argTypes, readerValues(layout, ask, chunk) as never).slice(2)}` as Hex
    const node = fakeNode()
    const answer = await callReaderInSlices({ data, gas: '0x2faf080' }, node.run)
    expect(answer).toBe(`0x${head}${voters.map(recordsOf).join('')}${pairs.map(([id]) => pairOf(id)).join('')}`)
    expect(node.calls.length).toBe(8)
    expect(node.calls.flatMap((call) => call.voters)).toEqual(voters)
    expect(node.calls.flatMap((call) => call.pairs)).toEqual(pairs.map(([id]) => id))
    for (const call of node.calls) {
      const part = planReaderChunk(layout, call.voters, pairs.filter(([, voter]) => call.voters.includes(voter)))
      expect(part.gas).toBeLessThanOrEqual(localReaderSliceGas)
    }
  })

  test('with Passport’s decoder, it runs in slices that each ask Passport, and answers the whole call’s bytes, Passport records last', async () => {
    const withPassport: ReaderLayout = { ...layout, passport: true }
    const decoder = '0x4b02a2f6cf8b0f2a3a1dc7e2e8b1b5c7d3e9f0a1'
    const voters = Array.from({ length: 600 }, (_, index) => voterAt(index))
    const pairs = voters.flatMap((voter, index): [bigint, string][] => (index % 25 === 0 ? [[BigInt(1000 + index), voter]] : []))
    const chunk = planReaderChunk(withPassport, voters, pairs)
    expect(chunk.gas).toBeGreaterThan(4 * localReaderSliceGas)
    const data = `${readerCode}${encodeAbiParameters(argTypes, readerValues(withPassport, { ...ask, passportDecoder: decoder }, chunk) as never).slice(2)}` as Hex
    const node = fakeNode()
    const answer = await callReaderInSlices({ data }, node.run)
    expect(answer).toBe(`0x${head}${voters.map(recordsOf).join('')}${pairs.map(([id]) => pairOf(id)).join('')}${voters.map(passportOf).join('')}`)
    expect(node.calls.length).toBeGreaterThan(4)
    expect(node.calls.every((call) => call.decoder === decoder)).toBe(true)
    expect(node.calls.flatMap((call) => call.voters)).toEqual(voters)
    for (const call of node.calls) {
      const part = planReaderChunk(withPassport, call.voters, pairs.filter(([, voter]) => call.voters.includes(voter)))
      expect(part.gas).toBeLessThanOrEqual(localReaderSliceGas)
    }
  })

  test('within the slice, or not a reader call, or asking attestations out of their voters’ order, or naming a voter twice, it runs as sent', async () => {
    const node = fakeNode()
    const small = planReaderChunk(layout, [voterAt(1), voterAt(2)], [[5n, voterAt(2)]])
    const smallData = `${readerCode}${encodeAbiParameters(argTypes, readerValues(layout, ask, small) as never).slice(2)}` as Hex
    expect(await callReaderInSlices({ data: smallData }, node.run)).toBeUndefined()
    expect(await callReaderInSlices({ to: '0xcA11bde05977b3631167028862bE2a173976CA11', data: '0x82ad56cb' }, node.run)).toBeUndefined()
    const voters = Array.from({ length: 700 }, (_, index) => voterAt(index))
    const reordered = planReaderChunk(layout, voters, [[2n, voters[600]!], [1n, voters[3]!]])
    const reorderedData = `${readerCode}${encodeAbiParameters(argTypes, readerValues(layout, ask, reordered) as never).slice(2)}` as Hex
    expect(await callReaderInSlices({ data: reorderedData }, node.run)).toBeUndefined()
    // A voter named twice, with an attestation: each half would ask its attestation again.
    const repeated = planReaderChunk(layout, [...voters.slice(0, 650), voters[10]!, ...voters.slice(651)], [[3n, voters[10]!]])
    const repeatedData = `${readerCode}${encodeAbiParameters(argTypes, readerValues(layout, ask, repeated) as never).slice(2)}` as Hex
    expect(await callReaderInSlices({ data: repeatedData }, node.run)).toBeUndefined()
    expect(node.calls).toEqual([])
  })
})

describe('on the local chain of a world', () => {
  let chain: LocalChain | undefined
  afterAll(async () => {
    await chain?.stop()
  })

  test('a call of 600 voters, run in slices, reads every verdict as calls of 30 voters (never cut) do', async () => {
    const world = generateWorld({ now: '2025-06-01T00:00:00.000Z', wallets: 1_000 })
    chain = await startLocalChain({ world, now: () => Date.parse(world.now), rpc: false })
    const holders = [...new Set(world.verifications.map((record) => record.address))]
    const addresses = [...new Set([...holders, ...world.wallets.map((wallet) => wallet.address)])].slice(0, 600)
    const credentials = ['gov-id', 'phone', 'biometrics'] as const
    const chunks = planReaderChunks({ credentials, expiries: true }, addresses, () => [])
    expect(chunks.length).toBe(1)
    expect(chunks[0]!.gas).toBeGreaterThan(4 * localReaderSliceGas)
    const read = (group: typeof addresses) =>
      readReaderVerdicts({ client: chain!.provider, network: optimismNetwork, addresses: group, credentials, actionId: universalActionId, expiries: true, blockNumber: chain!.blockAt(world.now) })
    const whole = await read(addresses)
    const small = new Map()
    for (let start = 0; start < addresses.length; start += 30) for (const [address, verdicts] of (await read(addresses.slice(start, start + 30))).verdicts) small.set(address, verdicts)
    expect(whole.verdicts).toEqual(small)
    // Holders of each credential are among them: the slices carry verdicts that hold.
    expect([...whole.verdicts.values()].filter((verdicts) => verdicts.some((verdict) => verdict.valid)).length).toBeGreaterThan(50)
  }, 300_000)

  test('a call of 600 voters asking Passport’s decoder, run in slices, answers the bytes of calls of 30 voters (never cut) joined', async () => {
    const world = generateWorld({ now: '2025-06-01T00:00:00.000Z', wallets: 1_000 })
    chain ??= await startLocalChain({ world, now: () => Date.parse(world.now), rpc: false })
    const pushed = world.onchainPassports!.map((push) => push.address.toLowerCase())
    const voters = [...new Set([...pushed, ...world.wallets.map((wallet) => wallet.address.toLowerCase())])].slice(0, 600)
    const withPassport: ReaderLayout = { credentials: ['gov-id', 'phone', 'biometrics'], expiries: true, passport: true }
    const { contracts, circuitIds, issuers, cleanHands } = optimismNetwork
    const onChain: ReaderAsk = {
      hub: contracts.hub,
      actionId: universalActionId,
      circuits: (['gov-id', 'phone', 'biometrics'] as const).map((credential) => ({ credential, circuitId: circuitIds[credential], issuer: issuers[credential], store: readerZeroAddress })),
      passport: { circuitId: circuitIds['zk-passport'], issuer: issuers['zk-passport'] },
      signProtocol: readerZeroAddress,
      schemaId: cleanHands.schemaId,
      attester: cleanHands.attester,
      passportDecoder: contracts.passportDecoder!,
    }
    const block = toHex(chain.blockAt(world.now))
    const read = async (chunk: ReturnType<typeof planReaderChunk>) =>
      (await chain!.provider.request({ method: 'eth_call', params: [{ data: `${readerCode}${encodeAbiParameters(argTypes, readerValues(withPassport, onChain, chunk) as never).slice(2)}` }, block] })) as string
    const whole = planReaderChunk(withPassport, voters, [])
    expect(whole.gas).toBeGreaterThan(4 * localReaderSliceGas)
    let joined = planReaderChunk(withPassport, voters.slice(0, 30), [])
    let answer = await read(joined)
    for (let start = 30; start < voters.length; start += 30) {
      const part = planReaderChunk(withPassport, voters.slice(start, start + 30), [])
      expect(part.gas).toBeLessThanOrEqual(localReaderSliceGas)
      answer = joinReaderHalves(withPassport, [joined, part], [answer, await read(part)])
      joined = planReaderChunk(withPassport, [...joined.voters, ...part.voters], [])
    }
    expect(await read(whole)).toBe(answer)
    // At the latest block (named, or no block at all), every slice reads the block the call was asked at.
    const wholeData = `${readerCode}${encodeAbiParameters(argTypes, readerValues(withPassport, onChain, whole) as never).slice(2)}`
    expect(await chain.provider.request({ method: 'eth_blockNumber' })).toBe(block)
    expect(await chain.provider.request({ method: 'eth_call', params: [{ data: wholeData }, 'latest'] })).toBe(answer)
    expect(await chain.provider.request({ method: 'eth_call', params: [{ data: wholeData }] })).toBe(answer)
    // The world's pushed Passports are among them: the slices carry scores the decoder returned.
    expect(readerVoters(withPassport, whole, answer).filter((voter) => voter.onchainPassport?.status === 1).length).toBeGreaterThan(20)
  }, 300_000)
})
