/** Small helpers shared by the chain tests. */
import type { Address } from 'viem'
import type { CleanHandsRow } from '../../src/verify/clean-hands.js'
import type { MalformedAttestationRow } from '../../src/schemas/attestation.js'
import type { AttestationIndex } from '../../src/verify/credentials/index.js'
import type { Eip1193 } from './harness.js'

let counter = 0x1000

/** A new address no other test uses (lower case). */
export function freshAddress(): Address {
  counter++
  return `0x${counter.toString(16).padStart(8, '0')}${'ab'.repeat(16)}` as Address
}

/** The authorized clean-hands attester, lower case (as the index often writes it). */
export const attesterLower = '0xb1f50c6c34c72346b1229e5c80587d0d659556fd'

/** An index row that passes rule 6 until `validUntil`. */
export function goodRow(attestationId: bigint, validUntil: bigint | string, overrides: Partial<CleanHandsRow> = {}): CleanHandsRow {
  return {
    fullSchemaId: 'onchain_evm_10_0x8',
    attester: attesterLower,
    isReceiver: true,
    revoked: false,
    validUntil: typeof validUntil === 'bigint' ? validUntil.toString() : validUntil,
    attestationId: `0x${attestationId.toString(16)}`,
    ...overrides,
  }
}

/** An attestation index backed by a plain map (what the HTTP index client would return). */
export function indexOf(rows: Record<string, (CleanHandsRow | MalformedAttestationRow)[]>): AttestationIndex & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    async getAttestations({ address }) {
      calls.push(address)
      return rows[address.toLowerCase()] ?? []
    },
  }
}

/** Wraps a provider: counts calls per method and the most requests in flight; `fail` can replace answers. */
export function instrument(
  provider: Eip1193,
  fail?: (args: { method: string; params?: unknown }) => Error | undefined,
): Eip1193 & { methods: Record<string, number>; maxInFlight: number; total(): number } {
  let inFlight = 0
  const wrapped = {
    methods: {} as Record<string, number>,
    maxInFlight: 0,
    total: () => Object.values(wrapped.methods).reduce((sum, count) => sum + count, 0),
    async request(args: { method: string; params?: unknown }) {
      wrapped.methods[args.method] = (wrapped.methods[args.method] ?? 0) + 1
      inFlight++
      wrapped.maxInFlight = Math.max(wrapped.maxInFlight, inFlight)
      try {
        // Yield a few turns so that concurrent requests really overlap.
        for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve))
        const error = fail?.(args)
        if (error) throw error
        return await provider.request(args)
      } finally {
        inFlight--
      }
    },
  }
  return wrapped
}
