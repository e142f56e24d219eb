/**
 * Fast ABI encoding and decoding for the hot path (tens of thousands of calls per verification):
 * `aggregate3` calldata and results, `getSBT` calldata and results. They work on hex strings
 * directly, without the byte conversions of a general decoder.
 *
 * The decoders are strict: anything that is not exactly the canonical encoding Solidity emits
 * (aligned offsets inside the data, bools 0 or 1, sizes in range) gives `undefined`, and the caller
 * falls back to viem's general decoder, which decodes it or throws. They never answer something
 * else than viem would (property-tested against it).
 */
import { toFunctionSelector, type Address, type Hex } from 'viem'

/** Selector of `aggregate3((address,bool,bytes)[])`. */
export const aggregate3Selector = toFunctionSelector('aggregate3((address,bool,bytes)[])')

/** Selector of `getSBT(address,bytes32)`. */
export const getSbtSelector = toFunctionSelector('getSBT(address,bytes32)')

const zeroWord = '0'.repeat(64)

function word(value: number): string {
  return value.toString(16).padStart(64, '0')
}

/** Encodes `getSBT(subject, circuitId)` calldata. `subject` is 0x + 40 hex, `circuitId` 0x + 64 hex. */
export function encodeGetSbtCalldata(subject: Address, circuitId: Hex): Hex {
  return `${getSbtSelector}${subject.slice(2).toLowerCase().padStart(64, '0')}${circuitId.slice(2).toLowerCase()}`
}

/** Encodes `aggregate3(calls)` calldata with allowFailure true for every call. */
export function encodeAggregate3Calldata(calls: readonly { target: Address; callData: Hex }[]): Hex {
  const heads: string[] = []
  const tails: string[] = []
  let offset = 32 * calls.length
  for (const call of calls) {
    heads.push(word(offset))
    const data = call.callData.slice(2).toLowerCase()
    const length = data.length / 2
    const padded = data.padEnd(Math.ceil(length / 32) * 64, '0')
    tails.push(`${call.target.slice(2).toLowerCase().padStart(64, '0')}${word(1)}${word(96)}${word(length)}${padded}`)
    offset += 128 + padded.length / 2
  }
  return `${aggregate3Selector}${word(32)}${word(calls.length)}${heads.join('')}${tails.join('')}`
}

/** Reads a 32-byte word at `byteOffset` as a size (offset or length); undefined if out of range. */
function readSize(hex: string, byteOffset: number): number | undefined {
  const start = byteOffset * 2
  if (start + 64 > hex.length) return undefined
  // Sizes above 2^48 cannot point inside any answer a node sends.
  if (hex.slice(start, start + 52) !== zeroWord.slice(0, 52)) return undefined
  const value = Number.parseInt(hex.slice(start + 52, start + 64), 16)
  return Number.isNaN(value) ? undefined : value
}

function readBool(hex: string, byteOffset: number): boolean | undefined {
  const start = byteOffset * 2
  if (start + 64 > hex.length) return undefined
  const value = hex.slice(start, start + 64)
  if (value === zeroWord) return false
  if (value === `${zeroWord.slice(0, 63)}1`) return true
  return undefined
}

function readUint(hex: string, byteOffset: number): bigint | undefined {
  const start = byteOffset * 2
  if (start + 64 > hex.length) return undefined
  return BigInt(`0x${hex.slice(start, start + 64)}`)
}

const hexPattern = /^0x[0-9a-fA-F]*$/

/**
 * Decodes an `aggregate3` result (`(bool success, bytes returnData)[]`), or undefined when the data
 * is not in canonical form.
 */
export function decodeAggregate3Result(data: Hex): { success: boolean; returnData: Hex }[] | undefined {
  if (!hexPattern.test(data) || data.length % 2 !== 0) return undefined
  const hex = data.slice(2).toLowerCase()
  const root = readSize(hex, 0)
  if (root !== 32) return undefined
  const count = readSize(hex, 32)
  if (count === undefined || 64 + 32 * count > hex.length / 2) return undefined
  const results: { success: boolean; returnData: Hex }[] = new Array(count)
  const arrayStart = 64
  for (let index = 0; index < count; index++) {
    const offset = readSize(hex, arrayStart + 32 * index)
    if (offset === undefined || offset % 32 !== 0) return undefined
    const tuple = arrayStart + offset
    const success = readBool(hex, tuple)
    const bytesOffset = readSize(hex, tuple + 32)
    if (success === undefined || bytesOffset === undefined || bytesOffset % 32 !== 0) return undefined
    const bytesStart = tuple + bytesOffset
    const length = readSize(hex, bytesStart)
    if (length === undefined || (bytesStart + 32 + length) * 2 > hex.length) return undefined
    results[index] = { success, returnData: `0x${hex.slice((bytesStart + 32) * 2, (bytesStart + 32 + length) * 2)}` }
  }
  return results
}

/**
 * Decodes a `getSBT` result (`(uint256 expiry, uint256[] publicValues, bool revoked)`), or undefined
 * when the data is not in canonical form.
 */
export function decodeGetSbtResult(data: Hex): { expiry: bigint; publicValues: bigint[]; revoked: boolean } | undefined {
  if (!hexPattern.test(data) || data.length % 2 !== 0) return undefined
  const hex = data.slice(2).toLowerCase()
  const tuple = readSize(hex, 0)
  if (tuple === undefined || tuple % 32 !== 0) return undefined
  const expiry = readUint(hex, tuple)
  const arrayOffset = readSize(hex, tuple + 32)
  const revoked = readBool(hex, tuple + 64)
  if (expiry === undefined || arrayOffset === undefined || arrayOffset % 32 !== 0 || revoked === undefined) return undefined
  const arrayStart = tuple + arrayOffset
  const length = readSize(hex, arrayStart)
  if (length === undefined || (arrayStart + 32 + 32 * length) * 2 > hex.length) return undefined
  const publicValues: bigint[] = new Array(length)
  for (let index = 0; index < length; index++) publicValues[index] = readUint(hex, arrayStart + 32 + 32 * index) as bigint
  return { expiry, publicValues, revoked }
}
