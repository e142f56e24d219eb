/**
 * The local chain's answer to a large call of the human-id deployless reader, computed in slices.
 * One EDR call's memory grows with the call: with EDR 0.13.0 (no call traces) two 2,000-voter reads
 * with every credential (three reader calls each, up to 50M gas) peaked at 1,239-1,554 MB in a fresh
 * process run whole and at 588-839 MB in slices (bench/edr-read-memory.ts, 2026-11-28; with EDR
 * 0.12, which traced every EVM step, one such call grew the process by 4.4 GB).
 * The local chain runs such a call as consecutive calls over parts of its voters, each planned at
 * most {@link localReaderSliceGas}, and joins their answers as the reader's client joins the halves
 * of a chunk that ran over a node's cap (`halveReaderChunk`, `joinReaderHalves` of the reader's
 * protocol): the same bytes as the whole call, an eighth of the call at a time. Any other call, a
 * reader call within the slice, and one the reader's client never sends (attestations out of their
 * voters' order, a voter named twice), runs as it was sent. A slice that fails fails the whole call.
 */
import { decodeAbiParameters, encodeAbiParameters, parseAbiParameters, type Hex } from 'viem'
import {
  halveReaderChunk,
  joinReaderHalves,
  planReaderChunk,
  readerArgs,
  readerCode,
  readerValues,
  readerZeroAddress,
  type ReaderAsk,
  type ReaderChunk,
  type ReaderLayout,
} from '../rules/reader.js'

/**
 * Planned gas of one slice of a reader call on the local chain: about an eighth of a call near the
 * 50M cap (each eighth with the call's own 200,000: 6.5M), so one EDR call is an eighth of a full
 * call (figures in the module's comment).
 */
export const localReaderSliceGas = 6_500_000

const argTypes = parseAbiParameters(readerArgs.join(', '))

type Head = readonly [Hex, bigint, readonly [Hex, bigint, Hex, boolean], boolean]
type Circuit = readonly [Hex, bigint, Hex, boolean]

/**
 * A reader call's creation data (the reader's code and its arguments) read back into its layout,
 * what it asks and its chunk of voters; a `RangeError` for a call the reader's client never sends
 * (attestations out of their voters' order or past them, a voter named twice).
 *
 * @example
 * const { layout, chunk } = readReaderCall(call.data) // chunk.voters, chunk.pairs, chunk.gas
 */
export function readReaderCall(data: Hex): { layout: ReaderLayout; ask: ReaderAsk; chunk: ReaderChunk } {
  const [head, circuits, voters, signProtocol, pairs, passportDecoder] = decodeAbiParameters(argTypes, `0x${data.slice(readerCode.length)}`) as unknown as [
    Head,
    readonly Circuit[],
    Hex,
    readonly [Hex, bigint, Hex],
    Hex,
    Hex,
  ]
  // The answer's layout depends on the SBT records asked (two for gov-id, one for any other
  // circuit) and the expiries; which other circuit it is only moves the planned gas (phone costs 1,500 more than biometrics).
  const credentials: string[] = circuits.map((circuit) => (circuit[3] ? 'gov-id' : 'biometrics'))
  if (signProtocol[0].toLowerCase() !== readerZeroAddress) credentials.push('clean-hands')
  const passport = passportDecoder.toLowerCase() !== readerZeroAddress
  const layout: ReaderLayout = { credentials, expiries: head[3], passport }
  const ask: ReaderAsk = {
    hub: head[0],
    actionId: head[1],
    circuits: circuits.map((circuit, index) => ({ credential: credentials[index]!, circuitId: circuit[0], issuer: circuit[1], store: circuit[2] })),
    passport: { circuitId: head[2][0], issuer: head[2][1] },
    signProtocol: signProtocol[0],
    schemaId: signProtocol[1],
    attester: signProtocol[2],
    ...(passport ? { passportDecoder } : {}),
  }
  const chunkVoters: string[] = []
  for (let at = 2; at < voters.length; at += 40) chunkVoters.push(`0x${voters.slice(at, at + 40)}`)
  // A chunk's halves give a voter's attestations to each half naming the voter: a call naming a
  // voter twice is not cut (it runs whole, as sent).
  if (new Set(chunkVoters).size !== chunkVoters.length) throw new RangeError('a voter named twice')
  const chunkPairs: [bigint, string][] = []
  let last = 0
  for (let at = 2; at < pairs.length; at += 20) {
    const position = Number.parseInt(pairs.slice(at + 16, at + 20), 16)
    // Joined halves give the attestations' answers in their voters' order: a call that asks them in
    // another order, or for a position past its voters, is not cut (it runs whole, as sent).
    if (position < last || position >= chunkVoters.length) throw new RangeError('attestations out of their voters’ order')
    last = position
    chunkPairs.push([BigInt(`0x${pairs.slice(at, at + 16)}`), chunkVoters[position]!])
  }
  return { layout, ask, chunk: planReaderChunk(layout, chunkVoters, chunkPairs) }
}

/**
 * Answers `eth_call` of `call` (its `data` or `input`) by `run`, in slices when it is a reader call
 * planned over {@link localReaderSliceGas} (see the module's comment); `undefined` when it is not
 * one to slice (the caller runs it whole).
 *
 * @example
 * const answer = await callReaderInSlices(params[0], (data) => edr.request({ method: 'eth_call', params: [{ ...params[0], data }, params[1]] }))
 */
export async function callReaderInSlices(call: unknown, run: (data: Hex) => Promise<Hex>): Promise<Hex | undefined> {
  if (typeof call !== 'object' || call === null) return undefined
  const { data, input, to } = call as { data?: unknown; input?: unknown; to?: unknown }
  const code = typeof data === 'string' ? data : input
  if (typeof code !== 'string' || (to !== undefined && to !== null) || code.slice(0, readerCode.length).toLowerCase() !== readerCode) return undefined
  let read: ReturnType<typeof readReaderCall>
  try {
    read = readReaderCall(code as Hex)
  } catch {
    return undefined
  }
  const { layout, ask, chunk } = read
  if (chunk.gas <= localReaderSliceGas || chunk.voters.length < 2) return undefined
  const encode = (part: ReaderChunk) => `${readerCode}${encodeAbiParameters(argTypes, readerValues(layout, ask, part) as never).slice(2)}` as Hex
  const answer = async (part: ReaderChunk): Promise<Hex> => {
    if (part.gas <= localReaderSliceGas || part.voters.length < 2) {
      return run(encode(part))
    }
    const halves = halveReaderChunk(layout, part)
    const first = await answer(halves[0])
    const second = await answer(halves[1])
    return joinReaderHalves(layout, halves, [first, second]) as Hex
  }
  return answer(chunk)
}
