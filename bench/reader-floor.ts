/**
 * The floor of a run's reader calls, read back from the calls sent: each reader `eth_call`'s voters
 * and the attestations asked for each, then the calls of one plan over every voter asked (what a
 * single strategy call over them all would send, planned as src/rules/reader.ts plans). The benches
 * print requests against `requests - calls + floor`.
 */
import { readReaderCall } from '../src/devchain/reader-slices.js'
import { planReaderChunks, readerCode, type ReaderLayout } from '../src/rules/reader.js'

/** A prefix of the reader's creation code: a request body holding it is a reader call. */
const marker = readerCode.slice(2, 200)

/** What a bench notes of the reader calls it sees (see the module's comment). */
export type ReaderFloor = {
  /** Reads a request's body; a JSON-RPC `eth_call` of the reader is noted, anything else ignored. */
  note(body: unknown): void
  /** Reader calls noted. */
  calls(): number
  /** Reader calls of one plan over every voter noted, with the credentials asked (expiries and Passport as the calls asked). */
  planned(credentials: readonly string[]): number
}

/** A new {@link ReaderFloor}. */
export function createReaderFloor(): ReaderFloor {
  let calls = 0
  let expiries = false
  let passport = false
  const asked = new Map<string, bigint[]>()
  const noteCall = (data: string) => {
    calls++
    const { layout, chunk } = readReaderCall(data as `0x${string}`)
    expiries = layout.expiries === true
    passport = layout.passport === true
    for (const voter of chunk.voters) if (!asked.has(voter)) asked.set(voter, [])
    for (const [id, voter] of chunk.pairs) {
      const mine = asked.get(voter)!
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
      const layout: ReaderLayout = { credentials, expiries, passport }
      return planReaderChunks(layout, [...asked.keys()], (voter) => asked.get(voter)!).length
    },
  }
}
