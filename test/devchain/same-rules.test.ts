/**
 * The reference server's E1-E6 answers and the on-chain verifier come from the same rules
 * (`src/verify/sbt.ts`), so they give the same answer, reason and expiry on any state. fast-check
 * generates Human ID states around one block time (SBTs that expire just before, at or just after
 * it, revocations on both sides of it, replacements, wrong issuers and action ids, empty public
 * values, the zk-passport SBT and permanent-store entries); the local chain is seeded with each, and
 * `verifyCredentials` at three blocks is compared with the server's `evaluateVerification` at each
 * block's time.
 */
import fc from 'fast-check'
import type { Address, Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { startLocalChain } from '../../src/devchain/index.js'
import { evaluateVerification } from '../../src/server/routes/human-id.js'
import { verifyCredentials } from '../../src/verify/credentials/index.js'
import { humanIdCircuitIds, humanIdIssuers } from '../../src/world/constants.js'
import type { Verification } from '../../src/world/types.js'

const genesisTime = 1_735_689_600
const blockTimeSeconds = 2
/** The middle block judged; the blocks before and after it are judged too. */
const block = 1000n
const time = genesisTime + Number(block) * blockTimeSeconds
const credentials = ['gov-id', 'phone', 'biometrics'] as const
const addressesPerRun = 6

type Circuit = 'gov-id' | 'phone' | 'biometrics' | 'zk-passport'

/** Seconds from the middle block's time; the judged blocks sit at -2, 0 and +2, so every boundary is hit. */
const offset = fc.constantFrom(-5, -3, -2, -1, 0, 1, 2, 3, 5)

const sbt = fc.record({
  circuit: fc.constantFrom<Circuit>('gov-id', 'phone', 'biometrics', 'zk-passport'),
  issuedOffset: fc.constantFrom(-1_000, -4, -2, -1, 0, 1, 2),
  /** null: never expires (expiry 2^256-1 on chain); far: a year on. */
  expiresOffset: fc.oneof({ weight: 6, arbitrary: offset }, { weight: 1, arbitrary: fc.constant(31_536_000) }, { weight: 1, arbitrary: fc.constant(null) }),
  /** undefined: not revoked; null: revoked at an unknown time (from issuance on). */
  revokedOffset: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: offset }, { weight: 1, arbitrary: fc.constant(null) }),
  customAction: fc.boolean(),
  wrongIssuer: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  emptyPublicValues: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
})

const legacyEntry = fc.record({
  credential: fc.constantFrom('gov-id' as const, 'phone' as const),
  issuedOffset: fc.constantFrom(-1_000, -3, -2, -1, 0, 1, 2, 3),
  customAction: fc.boolean(),
})

/** One address's records: up to five SBTs (a newer one of a circuit replaces the older), up to two permanent-store entries. */
const addressState = fc.record({ sbts: fc.array(sbt, { maxLength: 5 }), legacy: fc.array(legacyEntry, { maxLength: 2 }) })

type AddressState = typeof addressState extends fc.Arbitrary<infer T> ? T : never

function toRecords(address: Address, state: AddressState): Verification[] {
  const records: Verification[] = state.sbts.map((entry) => {
    const revoked = entry.revokedOffset !== undefined
    return {
      address,
      credential: entry.circuit === 'zk-passport' ? 'gov-id' : entry.circuit,
      network: 'optimism',
      source: entry.circuit === 'zk-passport' ? 'zk-passport' : 'hub',
      circuitId: humanIdCircuitIds[entry.circuit],
      actionId: entry.customAction ? '42' : '123456789',
      issuer: entry.emptyPublicValues ? null : entry.wrongIssuer ? '0x01' : (humanIdIssuers[entry.circuit] as Hex),
      nullifier: entry.emptyPublicValues ? null : '7',
      emptyPublicValues: entry.emptyPublicValues,
      issuedAt: time + entry.issuedOffset,
      expiresAt: entry.expiresOffset === null ? null : time + entry.expiresOffset,
      revoked,
      revokedAt: revoked && entry.revokedOffset !== null && entry.revokedOffset !== undefined ? time + entry.revokedOffset : null,
      kind: 'valid',
    }
  })
  for (const entry of state.legacy) {
    records.push({
      address,
      credential: entry.credential,
      network: 'optimism',
      source: 'legacy-store',
      circuitId: null,
      actionId: entry.customAction ? '42' : '123456789',
      issuer: null,
      nullifier: null,
      emptyPublicValues: false,
      issuedAt: time + entry.issuedOffset,
      expiresAt: null,
      revoked: false,
      revokedAt: null,
      kind: 'legacy-store',
    })
  }
  return records
}

let run = 0

describe('the reference server and the on-chain verifier apply the same Human ID rules', () => {
  it('give the same verdict, reason and expiry on generated SBT states, at and around the boundaries', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(addressState, { minLength: addressesPerRun, maxLength: addressesPerRun }), async (states) => {
        run += 1
        const addresses = states.map((_, index) => `0x${(0xa11ce000n * 0x100n + BigInt(run) * 0x10n + BigInt(index)).toString(16).padStart(40, '0')}` as Address)
        const verifications = states.flatMap((state, index) => toRecords(addresses[index]!, state))
        const world = { chain: { chainId: 10, genesisTime, blockTimeSeconds }, verifications, attestations: [] }
        const chain = await startLocalChain({ world, now: () => (time + 3) * 1000, rpc: false })
        try {
          for (const blockNumber of [block - 1n, block, block + 1n]) {
            const at = genesisTime + Number(blockNumber) * blockTimeSeconds
            const { results } = await verifyCredentials(chain.client, { addresses, credentials, blockNumber })
            for (const address of addresses) {
              const mine = verifications.filter((record) => record.address === address)
              for (const credential of credentials) {
                const server = evaluateVerification(mine, { credential, network: 'optimism', actionId: 123456789n, at })
                const { evidence: _evidence, ...verifier } = results[address]![credential]
                const fromServer = { valid: server.valid, reason: server.reason, ...('expiresAt' in server ? { expiresAt: server.expiresAt } : {}) }
                const fromChain = { valid: verifier.valid, reason: verifier.reason, ...(verifier.expiresAt === undefined ? {} : { expiresAt: verifier.expiresAt }) }
                expect(fromServer, `${credential} of ${address} at block ${blockNumber}: ${JSON.stringify(mine)}`).toEqual(fromChain)
              }
            }
          }
        } finally {
          await chain.stop()
        }
      }),
      { numRuns: 12 },
    )
  })

  it('an expiry equal to the block time is valid on both sides; one second earlier is expired on both', () => {
    const address = '0x0000000000000000000000000000000000a11ce0' as Address
    const record = toRecords(address, {
      sbts: [{ circuit: 'phone', issuedOffset: -1_000, expiresOffset: 0, revokedOffset: undefined, customAction: false, wrongIssuer: false, emptyPublicValues: false }],
      legacy: [],
    })
    expect(evaluateVerification(record, { credential: 'phone', network: 'optimism', actionId: 123456789n, at: time })).toMatchObject({ valid: true, expirationDate: time })
    expect(evaluateVerification(record, { credential: 'phone', network: 'optimism', actionId: 123456789n, at: time + 1 })).toMatchObject({ valid: false, reason: 'expired' })
  })

  it('wrong issuer and wrong action on one SBT: the same reason (the issuer is checked first) on both sides', () => {
    const address = '0x0000000000000000000000000000000000a11ce1' as Address
    const record = toRecords(address, {
      sbts: [{ circuit: 'biometrics', issuedOffset: -1_000, expiresOffset: 31_536_000, revokedOffset: undefined, customAction: true, wrongIssuer: true, emptyPublicValues: false }],
      legacy: [],
    })
    expect(evaluateVerification(record, { credential: 'biometrics', network: 'optimism', actionId: 123456789n, at: time })).toEqual({ valid: false, reason: 'wrong-issuer' })
  })
})
