/**
 * Property-based tests: the clean-hands predicate and the SBT classification against plain oracles
 * written from the rules (not from the code), 10,000 generated cases each; then the whole verifier
 * on the EVM against the same SBT oracle for random Hub states.
 */
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Address } from 'viem'
import { optimismNetwork } from '../../src/chain/constants.js'
import { checkCleanHandsAttestation, hasValidCleanHandsAttestation, isValidCleanHandsAttestation, type CleanHandsRow } from '../../src/verify/clean-hands.js'
import { verifyCredentials } from '../../src/verify/credentials/index.js'
import { classifySbt, type SbtCallResult } from '../../src/verify/sbt.js'
import { TestChain } from './harness.js'

const numRuns = 10_000
const ATTESTER = '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd'

// ---------------------------------------------------------------------------------------------
// Clean hands
// ---------------------------------------------------------------------------------------------

/** Rule 6, written out plainly. */
function cleanHandsOracle(row: Record<string, unknown>, now: Date | number | bigint): string {
  const nowSeconds = typeof now === 'bigint' ? now : typeof now === 'number' ? BigInt(Math.floor(now)) : BigInt(Math.floor(now.getTime() / 1000))
  const value = row.validUntil
  let until: bigint | null = null
  if (typeof value === 'bigint') until = value
  else if (typeof value === 'number' && Number.isInteger(value)) until = BigInt(value)
  else if (typeof value === 'string' && value.length > 0 && [...value].every((char) => char >= '0' && char <= '9')) until = BigInt(value)
  if (row.fullSchemaId !== 'onchain_evm_10_0x8') return 'wrong-schema'
  if (typeof row.attester !== 'string' || row.attester.toUpperCase() !== ATTESTER.toUpperCase()) return 'wrong-attester'
  if (row.isReceiver !== true) return 'wrong-recipient'
  if (row.revoked !== false) return 'revoked'
  if (until === null || until <= nowSeconds) return 'expired'
  return 'valid'
}

const baseNow = 1_750_000_000

const schemaArbitrary = fc.oneof(
  { arbitrary: fc.constant('onchain_evm_10_0x8'), weight: 6 },
  {
    arbitrary: fc.constantFrom('onchain_evm_10_0x80', 'onchain_evm_10_0x08', 'ONCHAIN_EVM_10_0X8', ' onchain_evm_10_0x8', 'offchain_evm_10_0x8', 'onchain_evm_1_0x8'),
    weight: 2,
  },
  { arbitrary: fc.string(), weight: 1 },
)

const attesterArbitrary = fc.oneof(
  { arbitrary: fc.constant(ATTESTER), weight: 2 },
  // The right address in a random mix of cases.
  {
    arbitrary: fc
      .array(fc.boolean(), { minLength: 40, maxLength: 40 })
      .map((upper) => `0x${[...ATTESTER.slice(2)].map((char, index) => (upper[index] ? char.toUpperCase() : char.toLowerCase())).join('')}`),
    weight: 4,
  },
  // One hex digit off.
  { arbitrary: fc.integer({ min: 2, max: 41 }).map((index) => `${ATTESTER.slice(0, index)}${ATTESTER[index] === '0' ? '1' : '0'}${ATTESTER.slice(index + 1)}`), weight: 1 },
  { arbitrary: fc.string(), weight: 1 },
)

const flagArbitrary = (usual: boolean) =>
  fc.oneof({ arbitrary: fc.constant(usual), weight: 8 }, { arbitrary: fc.constantFrom(!usual, 'true', 'false', 0, 1, null, undefined), weight: 2 })

const validUntilArbitrary = fc.oneof(
  { arbitrary: fc.integer({ min: -3, max: 3 }).map((delta) => baseNow + delta), weight: 3 },
  { arbitrary: fc.integer({ min: -3, max: 3 }).map((delta) => String(baseNow + delta)), weight: 3 },
  { arbitrary: fc.bigInt({ min: BigInt(baseNow) - 3n, max: BigInt(baseNow) + 3n }), weight: 2 },
  { arbitrary: fc.constantFrom('0', 0, '', ' 1750000001', '1750000001 ', '1.75e9', '0x7fffffff', '-1', 'NaN', Number.NaN, baseNow + 0.5, 2 ** 64, '99999999999999999999'), weight: 2 },
  { arbitrary: fc.bigInt({ min: 0n, max: 2n ** 64n }), weight: 1 },
  { arbitrary: fc.string(), weight: 1 },
)

const nowArbitrary = fc.oneof(
  fc.integer({ min: -3, max: 3 }).map((delta) => baseNow + delta),
  fc.integer({ min: -3, max: 3 }).map((delta) => BigInt(baseNow + delta)),
  fc.integer({ min: -3000, max: 3000 }).map((deltaMs) => new Date(baseNow * 1000 + deltaMs)),
  fc.double({ min: baseNow - 3, max: baseNow + 3, noNaN: true }),
)

const rowArbitrary = fc.record({
  fullSchemaId: schemaArbitrary,
  attester: attesterArbitrary,
  isReceiver: flagArbitrary(true),
  revoked: flagArbitrary(false),
  validUntil: validUntilArbitrary,
  attestationId: fc.constant('0x1'),
})

describe('clean-hands predicate against the rule', () => {
  it(`agrees with the oracle on ${numRuns} rows`, () => {
    let valid = 0
    fc.assert(
      fc.property(rowArbitrary, nowArbitrary, (row, now) => {
        const expected = cleanHandsOracle(row, now)
        if (expected === 'valid') valid++
        expect(checkCleanHandsAttestation(row as unknown as CleanHandsRow, { now })).toBe(expected)
        expect(isValidCleanHandsAttestation(row as unknown as CleanHandsRow, { now })).toBe(expected === 'valid')
      }),
      { numRuns },
    )
    // The generators reach both outcomes often (a property that only ever sees "false" proves little).
    expect(valid).toBeGreaterThan(numRuns / 10)
    expect(valid).toBeLessThan(numRuns * 0.9)
  })

  it(`has a valid attestation exactly when one row is valid (${numRuns} row lists)`, () => {
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 5 }), nowArbitrary, (rows, now) => {
        const expected = rows.some((row) => cleanHandsOracle(row, now) === 'valid')
        expect(hasValidCleanHandsAttestation(rows as unknown as CleanHandsRow[], { now })).toBe(expected)
      }),
      { numRuns },
    )
  })
})

// ---------------------------------------------------------------------------------------------
// SBT classification
// ---------------------------------------------------------------------------------------------

/** What the Hub stores for a subject and circuit (all zeros when nothing was ever set). */
type HubState = { expiry: bigint; publicValues: bigint[]; revoked: boolean }

/** The Hub's getSBT, as the contract behaves at a block with this timestamp. */
function hubGetSbt(state: HubState, blockTimestamp: bigint): SbtCallResult {
  if (state.expiry < blockTimestamp) return { status: 'reverted' }
  if (state.revoked) return { status: 'reverted' }
  return { status: 'success', expiry: state.expiry, publicValues: state.publicValues, revoked: state.revoked }
}

/**
 * The truth about a stored SBT at a block, written from docs/interface.md (§4) and Human ID's own
 * checks (field notes §4): `[2]` and `[4]`, never `[1]`, which holds the recipient only as far as
 * gov-id is shown: an SBT whose `[1]` is another address is as valid as any.
 */
function sbtOracle(state: HubState, blockTimestamp: bigint, actionId: bigint, issuer: bigint): string {
  if (state.revoked) return 'revoked'
  if (state.expiry === 0n) return 'none'
  if (state.expiry < blockTimestamp) return 'expired'
  if (state.publicValues.length < 5 || state.publicValues[4] !== issuer) return 'wrong-issuer'
  if (state.publicValues[2] !== actionId) return 'wrong-action'
  return 'valid'
}

const actionIds = [123456789n, 42n, 0n]
const issuers = [optimismNetwork.issuers.phone, optimismNetwork.issuers['gov-id'], optimismNetwork.issuers.phone << 8n, 0n]

const sbtCaseArbitrary = fc
  .record({
    blockTimestamp: fc.bigInt({ min: 1n, max: 2n ** 40n }),
    exists: fc.boolean(),
    expiryDelta: fc.oneof(fc.bigInt({ min: -2n, max: 2n }), fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n })),
    maxExpiry: fc.boolean(),
    revoked: fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 }),
    actionId: fc.constantFrom(...actionIds),
    issuer: fc.constantFrom(...issuers),
    storedActionId: fc.constantFrom(...actionIds),
    storedIssuer: fc.constantFrom(...issuers),
    // The subject asked about (passed as the ignored `recipient`); the SBT's [1] is it, or (rarely) another holder's.
    recipient: fc.constantFrom(0xabcn, 0xabcn, 0xabcn, 0xdefn),
    valuesLength: fc.oneof({ arbitrary: fc.constant(5), weight: 6 }, { arbitrary: fc.integer({ min: 0, max: 7 }), weight: 1 }),
  })
  .map((input) => {
    let expiry = input.maxExpiry ? 2n ** 256n - 1n : input.blockTimestamp + input.expiryDelta
    if (expiry < 0n) expiry = 0n
    const values = [expiry, 0xabcn, input.storedActionId, 0x1234n, input.storedIssuer, 7n, 8n].slice(0, input.valuesLength)
    const state: HubState = input.exists ? { expiry, publicValues: values, revoked: input.revoked } : { expiry: 0n, publicValues: [], revoked: false }
    return { ...input, state }
  })

describe('SBT classification against the Hub', () => {
  it(`agrees with the oracle on ${numRuns} Hub states (getSBT first, sbtOwners when it reverted)`, () => {
    const seen = new Set<string>()
    fc.assert(
      fc.property(sbtCaseArbitrary, ({ state, blockTimestamp, actionId, issuer }) => {
        const getSBT = hubGetSbt(state, blockTimestamp)
        let verdict = classifySbt({ getSBT, blockTimestamp, actionId, issuer })
        if (verdict.status === 'needs-owners') {
          verdict = classifySbt({ getSBT, sbtOwners: { expiry: state.expiry, revoked: state.revoked }, blockTimestamp, actionId, issuer })
        }
        const expected = sbtOracle(state, blockTimestamp, actionId, issuer)
        seen.add(expected)
        expect(verdict).toEqual(
          expected === 'valid' ? { status: 'classified', reason: 'valid', expiresAt: state.expiry } : { status: 'classified', reason: expected },
        )
        // Reading sbtOwners along with a successful getSBT changes nothing.
        expect(classifySbt({ getSBT, sbtOwners: { expiry: state.expiry, revoked: state.revoked }, blockTimestamp, actionId, issuer })).toEqual(verdict)
      }),
      { numRuns },
    )
    expect([...seen].sort()).toEqual(['expired', 'none', 'revoked', 'valid', 'wrong-action', 'wrong-issuer'])
  })

  it(`judges the same without the block timestamp, or asks for it only to tell expired from inconsistent (${numRuns} Hub states)`, () => {
    let asked = 0
    fc.assert(
      fc.property(sbtCaseArbitrary, ({ state, blockTimestamp, actionId, issuer }) => {
        // The Hub's getSBT ran at the block: its answer already reflects the block's timestamp.
        const getSBT = hubGetSbt(state, blockTimestamp)
        const owners = getSBT.status === 'reverted' ? { expiry: state.expiry, revoked: state.revoked } : undefined
        const withTimestamp = classifySbt({ getSBT, sbtOwners: owners, blockTimestamp, actionId, issuer })
        const without = classifySbt({ getSBT, sbtOwners: owners, actionId, issuer })
        if (without.status === 'needs-timestamp') {
          asked++
          expect(withTimestamp).toEqual({ status: 'classified', reason: 'expired' })
        } else {
          expect(without).toEqual(withTimestamp)
        }
      }),
      { numRuns },
    )
    expect(asked).toBeGreaterThan(numRuns / 20)
  })

  it(`never classifies reads that contradict each other (${numRuns} cases)`, () => {
    fc.assert(
      fc.property(sbtCaseArbitrary, sbtCaseArbitrary, (left, right) => {
        // getSBT from one Hub state, sbtOwners from another, at the same block.
        const getSBT = hubGetSbt(left.state, left.blockTimestamp)
        const owners = { expiry: right.state.expiry, revoked: right.state.revoked }
        const verdict = classifySbt({ getSBT, sbtOwners: owners, blockTimestamp: left.blockTimestamp, actionId: left.actionId, issuer: left.issuer })
        const contradiction =
          getSBT.status === 'success'
            ? owners.expiry !== getSBT.expiry || owners.revoked !== getSBT.revoked
            : !owners.revoked && owners.expiry !== 0n && owners.expiry >= left.blockTimestamp
        expect(verdict.status).toBe(contradiction ? 'inconsistent' : 'classified')
      }),
      { numRuns },
    )
  })
})

// ---------------------------------------------------------------------------------------------
// The whole verifier on the EVM, against the same oracle
// ---------------------------------------------------------------------------------------------

describe('verifyCredentials on the EVM against the oracle', () => {
  let chain: TestChain
  let counter = 0

  beforeAll(async () => {
    chain = await TestChain.start()
  })

  it('agrees with the oracle for random biometrics SBTs (40 runs of 20 addresses)', async () => {
    const issuer = optimismNetwork.issuers.biometrics
    const circuitId = optimismNetwork.circuitIds.biometrics
    const stateArbitrary = fc.record({
      kind: fc.constantFrom('none', 'set', 'set', 'set'),
      expiryDelta: fc.bigInt({ min: -3n, max: 3n }),
      revoked: fc.boolean(),
      actionId: fc.constantFrom(123456789n, 42n),
      issuer: fc.constantFrom(issuer, optimismNetwork.issuers.phone),
      // publicValues[1] holds another address: no condition of Human ID's, so no reason for 0.
      otherHolder: fc.constantFrom(false, false, false, true),
    })
    await fc.assert(
      fc.asyncProperty(fc.array(stateArbitrary, { minLength: 20, maxLength: 20 }), async (states) => {
        const { timestamp } = await chain.latest()
        const blockTimestamp = timestamp + 1000n // the block mined below, after at most 40 writes
        const addresses: Address[] = []
        const expected: string[] = []
        for (const state of states) {
          const address = `0x${(++counter).toString(16).padStart(40, '0')}` as Address
          addresses.push(address)
          const hubState: HubState = { expiry: 0n, publicValues: [], revoked: false }
          if (state.kind === 'set') {
            hubState.expiry = blockTimestamp + state.expiryDelta
            hubState.publicValues = [hubState.expiry, state.otherHolder ? BigInt(address) + 1n : BigInt(address), state.actionId, 1n, state.issuer]
            await chain.setSBT(address, circuitId, hubState.expiry, hubState.publicValues)
            if (state.revoked) {
              hubState.revoked = true
              await chain.revokeSBT(address, 'biometrics')
            }
          }
          expected.push(sbtOracle(hubState, blockTimestamp, 123456789n, issuer))
        }
        const block = await chain.mine(blockTimestamp)
        const { results } = await verifyCredentials(chain.client, { addresses, credentials: ['biometrics'], blockNumber: block.blockNumber, batchSize: 7 })
        expect(addresses.map((address) => results[address]?.biometrics.reason)).toEqual(expected)
      }),
      { numRuns: 40 },
    )
  })
})
