/**
 * The floor of a run's reader calls, read back from the calls sent: each reader `eth_call`'s voters
 * and the attestations asked for each, then the calls of one plan over every voter asked (what a
 * single strategy call over them all would send, planned as src/rules/reader.ts plans). The benches
 * print requests against `requests - calls + floor`.
 */
import { decodeAbiParameters, parseAbiParameters } from 'viem'
import { planReaderChunks, readerArgs, readerCode, type ReaderLayout } from '../src/rules/reader.js'

const readArgs = parseAbiParameters(readerArgs.join(', '))
/** A prefix of the reader's creation code: a request body holding it is a reader call. */
const marker = readerCode.slice(2, 200)

/** What a bench notes of the reader calls it sees (see the module's comment). */
export type ReaderFloor = {
  /** Reads a request's body; a JSON-RPC `eth_call` of the reader is noted, anything else ignored. */
  note(body: unknown): void
  /** Reader calls noted. */
  calls(): number
  /** Reader calls of one plan over every voter noted, with `layout` (the credentials asked; expiries as the calls asked). */
  planned(credentials: readonly string[]): number
}

/** A new {@link ReaderFloor}. */
export function createReaderFloor(): ReaderFloor {
  let calls = 0
  let expiries = false
  const asked = new Map<string, bigint[]>()
  const noteCall = (data: string) => {
    calls++
    const [head, , voters, , pairs] = decodeAbiParameters(readArgs, `0x${data.slice(readerCode.length)}`) as unknown as [readonly unknown[], unknown, string, unknown, string]
    expiries = head[3] === true
    const chunk: string[] = []
    for (let at = 2; at < voters.length; at += 40) {
      const voter = `0x${voters.slice(at, at + 40)}`.toLowerCase()
      chunk.push(voter)
      if (!asked.has(voter)) asked.set(voter, [])
    }
    for (let at = 2; at < pairs.length; at += 20) {
      const [id, position] = [BigInt(`0x${pairs.slice(at, at + 16)}`), Number.parseInt(pairs.slice(at + 16, at + 20), 16)]
      const mine = asked.get(chunk[position]!)!
      if (!mine.includes(id)) mine.push(id)
    }
  }
  return {
    note(body) {
      if (typeof body !== 'string' || !body.includes(marker)) return
      const parsed = JSON.parse(body) as { method: string; params: [{ data?: string; input?: string }] } | { method: string; params: [{ data?: string; input?: string }] }[]
      for (const request of Array.isArray(parsed) ? parsed : [parsed]) {
        const data = request.params?.[0]?.data ?? request.params?.[0]?.input
        if (request.method === 'eth_call' && data?.startsWith(readerCode)) noteCall(data)
      }
    },
    calls: () => calls,
    planned(credentials) {
      const layout: ReaderLayout = { credentials, expiries }
      return planReaderChunks(layout, [...asked.keys()], (voter) => asked.get(voter)!).length
    },
  }
}
