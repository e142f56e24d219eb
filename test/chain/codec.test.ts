/**
 * The hot-path codec against viem's general encoder and decoder: same bytes out, same values in,
 * and never a different answer on data that is not canonical (it falls back instead).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeFunctionResult, encodeFunctionData, encodeFunctionResult, type Address, type Hex } from 'viem'
import { hubAbi, multicall3Abi } from '../../src/chain/abis.js'
import { decodeAggregate3Result, decodeGetSbtResult, encodeAggregate3Calldata, encodeGetSbtCalldata } from '../../src/chain/codec.js'

const numRuns = 10_000

const addressArbitrary = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}` as Address)
const bytes32Arbitrary = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}` as Hex)
const bytesArbitrary = fc.uint8Array({ maxLength: 300 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}` as Hex)
const uint256Arbitrary = fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 64n }), fc.constant(0n))

/** viem's decoder, or the error it throws. */
function viemDecode<T>(decode: () => T): T | 'throws' {
  try {
    return decode()
  } catch {
    return 'throws'
  }
}

describe('encoding', () => {
  it(`encodes getSBT calldata as viem does (${numRuns} cases)`, () => {
    fc.assert(
      fc.property(addressArbitrary, bytes32Arbitrary, fc.boolean(), (subject, circuitId, upper) => {
        const shown = (upper ? `0x${subject.slice(2).toUpperCase()}` : subject) as Address
        expect(encodeGetSbtCalldata(shown, circuitId)).toBe(encodeFunctionData({ abi: hubAbi, functionName: 'getSBT', args: [subject, circuitId] }))
      }),
      { numRuns },
    )
  })

  it(`encodes aggregate3 calldata as viem does (${numRuns} cases)`, () => {
    fc.assert(
      fc.property(fc.array(fc.record({ target: addressArbitrary, callData: bytesArbitrary }), { maxLength: 8 }), (calls) => {
        const expected = encodeFunctionData({
          abi: multicall3Abi,
          functionName: 'aggregate3',
          args: [calls.map((call) => ({ ...call, allowFailure: true }))],
        })
        expect(encodeAggregate3Calldata(calls)).toBe(expected)
      }),
      { numRuns },
    )
  })
})

describe('decoding', () => {
  it(`decodes getSBT results as viem does (${numRuns} cases)`, () => {
    fc.assert(
      fc.property(uint256Arbitrary, fc.array(uint256Arbitrary, { maxLength: 8 }), fc.boolean(), (expiry, publicValues, revoked) => {
        const data = encodeFunctionResult({ abi: hubAbi, functionName: 'getSBT', result: { expiry, publicValues, revoked } })
        expect(decodeGetSbtResult(data)).toEqual({ expiry, publicValues, revoked })
        expect(decodeGetSbtResult(data.toUpperCase().replace('0X', '0x') as Hex)).toEqual({ expiry, publicValues, revoked })
      }),
      { numRuns },
    )
  })

  it(`decodes aggregate3 results as viem does (${numRuns} cases)`, () => {
    fc.assert(
      fc.property(fc.array(fc.record({ success: fc.boolean(), returnData: bytesArbitrary }), { maxLength: 8 }), (results) => {
        const data = encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results })
        expect(decodeAggregate3Result(data)).toEqual(results)
      }),
      { numRuns },
    )
  })

  it(`never answers differently from viem on mangled data: it decodes the same or declines (${numRuns} cases)`, () => {
    const sbt = fc
      .tuple(uint256Arbitrary, fc.array(uint256Arbitrary, { maxLength: 6 }), fc.boolean())
      .map(([expiry, publicValues, revoked]) => encodeFunctionResult({ abi: hubAbi, functionName: 'getSBT', result: { expiry, publicValues, revoked } }))
    const aggregate = fc
      .array(fc.record({ success: fc.boolean(), returnData: bytesArbitrary }), { maxLength: 4 })
      .map((results) => encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results }))
    // Flip, cut or extend the encoding at random places.
    const mangle = (data: Hex) =>
      fc
        .tuple(fc.nat({ max: Math.max(0, data.length - 3) }), fc.constantFrom('0', '1', '2', 'f', '8', ''), fc.nat({ max: 130 }), fc.boolean())
        .map(([position, digit, cut, extend]) => {
          let hex = data.slice(2)
          if (digit) hex = `${hex.slice(0, position)}${digit}${hex.slice(position + 1)}`
          if (cut) hex = hex.slice(0, Math.max(0, hex.length - cut * 2))
          if (extend) hex = `${hex}${'00'.repeat(32)}`
          return `0x${hex}` as Hex
        })
    const decoded = { sbt: 0, aggregate: 0 }
    fc.assert(
      fc.property(sbt.chain(mangle), aggregate.chain(mangle), (sbtData, aggregateData) => {
        const fastSbt = decodeGetSbtResult(sbtData)
        if (fastSbt) decoded.sbt++
        if (fastSbt) expect(fastSbt).toEqual(viemDecode(() => decodeFunctionResult({ abi: hubAbi, functionName: 'getSBT', data: sbtData })))
        const fastAggregate = decodeAggregate3Result(aggregateData)
        if (fastAggregate) {
          decoded.aggregate++
          expect(fastAggregate).toEqual(viemDecode(() => decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: aggregateData })))
        }
      }),
      { numRuns },
    )
    // Both branches are exercised: many mangled encodings still decode (and must agree), many do not.
    expect(decoded.sbt).toBeGreaterThan(numRuns / 10)
    expect(decoded.aggregate).toBeGreaterThan(numRuns / 10)
    expect(decoded.sbt).toBeLessThan(numRuns * 0.95)
    expect(decoded.aggregate).toBeLessThan(numRuns * 0.95)
  })

  it('declines what it does not take: no data, odd length, non-hex, booleans other than 0 or 1', () => {
    const good = encodeFunctionResult({ abi: hubAbi, functionName: 'getSBT', result: { expiry: 5n, publicValues: [1n], revoked: false } })
    expect(decodeGetSbtResult('0x')).toBeUndefined()
    expect(decodeGetSbtResult(`${good}0` as Hex)).toBeUndefined()
    expect(decodeGetSbtResult(`${good.slice(0, -2)}zz` as Hex)).toBeUndefined()
    // revoked = 2 (the third word of the tuple)
    const badBool = `${good.slice(0, 2 + 64 * 3)}${'0'.repeat(63)}2${good.slice(2 + 64 * 4)}` as Hex
    expect(decodeGetSbtResult(badBool)).toBeUndefined()
    expect(viemDecode(() => decodeFunctionResult({ abi: hubAbi, functionName: 'getSBT', data: badBool }))).toBe('throws')
  })
})
