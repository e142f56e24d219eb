/**
 * The history of the local chain, planned from a world: which contract writes happen in which
 * block, so that the chain at block N holds exactly what the world says held at that block's time.
 * Pure: a world comes in, a list of blocks with their writes comes out.
 */
import { encodeAbiParameters, getAddress, type Address, type Hex } from 'viem'
import { getNetwork, type NetworkConstants, type NetworkName } from '../chain/constants.js'
import { InvalidParameterError } from '../errors/index.js'
import { decimalToUnits, readDecimal, unitsToDecimal } from '../rules/decimals.js'
import { passportDecoderDecimals } from '../rules/passport-onchain.js'
import { parseValidUntil } from '../verify/clean-hands.js'
import { firstBlockAtOrAfter, blockToTime, type ChainTimeBase } from '../world/chain-time.js'
import { hubActionIdOf, hubSbtOf } from '../world/hub-state.js'
import type { AttestationRow, Verification, World } from '../world/types.js'

/**
 * What the local chain is seeded from: the chain clock, the Human ID verifications and the
 * clean-hands attestation rows. A {@link World} fits, and so does the reference server's state
 * (`server.context.store.state`), which holds the same records. `onchainPassports` seed Passport's
 * decoder; a world without them has no Passport on chain.
 */
export type LocalChainWorld = Pick<World, 'chain' | 'verifications' | 'attestations'> & Partial<Pick<World, 'onchainPassports'>>

/** One contract write of the plan. */
export type ChainWrite =
  | { kind: 'set-sbt'; to: Address; subject: Address; circuitId: Hex; expiry: bigint; publicValues: bigint[] }
  | { kind: 'revoke-sbt'; to: Address; subject: Address; circuitId: Hex }
  | { kind: 'set-unique'; to: Address; user: Address; actionId: bigint }
  | { kind: 'attest'; to: Address; attestationId: bigint; schemaId: bigint; attester: Address; validUntil: bigint; recipients: Hex[] }
  | { kind: 'revoke-attestation'; to: Address; attestationId: bigint }
  | { kind: 'set-passport-score'; to: Address; user: Address; score: bigint; time: bigint; expirationTime: bigint }
  | { kind: 'revoke-passport-score'; to: Address; user: Address }

/** A block of the plan: its number, its timestamp (the world's clock) and its writes, in order. */
export type PlannedBlock = { blockNumber: bigint; timestamp: bigint; writes: ChainWrite[] }

/** What {@link planLocalChain} returns. */
export type LocalChainPlan = {
  network: NetworkConstants
  /** Blocks with writes, in block order (the blocks between them are empty). */
  blocks: PlannedBlock[]
}

const maxUint64 = 2n ** 64n - 1n

/**
 * Plans the local chain of a world, on Optimism (the default) or on the Base Sepolia sandbox.
 *
 * - Human ID SBTs (`source` hub or zk-passport) of the network: `setSBT` on the Hub in the first
 *   block at or after `issuedAt`, with the expiry and public values the Hub holds for the record
 *   (`hubSbtOf` of `world/hub-state.ts`, the mapping the reference server judges with too). A
 *   revoked SBT is revoked in the first block at or after its revocation time, unless a newer SBT
 *   of the same circuit replaced it by then.
 * - Permanent-store entries (Optimism; gov-id and phone): `setIsUniqueForAction` at `issuedAt`.
 * - Clean-hands attestation rows whose schema is on this chain (`onchain_evm_<chainId>_0x<id>`):
 *   one Sign Protocol attestation per attestation id (rows listing the same id must agree), in the
 *   first block at or after its `attestTimestamp`, with the row's schema, attester, `validUntil`
 *   (a value that is not a whole number is written 0, which never passes, as the rule reads it) and
 *   recipients (each ABI-encoded as a string). The world keeps no revocation time for attestations
 *   (the index shows today's `revoked` flag only), so a revoked one is revoked in the block that
 *   creates it: no block sees it valid, as the index says.
 *
 * "The first block at or after t" is where an event at t belongs: the reference server judges a
 * block at the block's time, and counts an event at t from the first block whose time is not
 * before t.
 *
 * @throws {InvalidParameterError} when the world cannot be written to a chain: an event before block 1,
 *   a malformed action id, nullifier, issuer, attestation id or attester, rows of one attestation that disagree.
 * @example
 * const { blocks } = planLocalChain(world)
 * blocks[0].writes[0] // { kind: 'set-sbt', to: '0x2AA8...', subject, circuitId, expiry, publicValues }
 */
export function planLocalChain(world: LocalChainWorld, options: { network?: NetworkName } = {}): LocalChainPlan {
  const network = getNetwork(options.network ?? 'optimism')
  const base: ChainTimeBase = world.chain
  const events: Array<{ time: number; order: number; write: ChainWrite; what: string }> = []
  const add = (time: number, write: ChainWrite, what: string) => events.push({ time, order: events.length, write, what })

  // Human ID: SBTs and permanent-store entries of this network, in time order (then world order).
  const records = world.verifications
    .map((record, index) => ({ record, index }))
    .filter(({ record }) => record.network === network.name)
    .sort((a, b) => a.record.issuedAt - b.record.issuedAt || a.index - b.index)
  for (const { record, index } of records) {
    const what = `verification ${index} (${record.credential} of ${record.address})`
    if (record.source === 'legacy-store') {
      const store = record.credential === 'gov-id' ? network.contracts.govIdLegacyStore : record.credential === 'phone' ? network.contracts.phoneLegacyStore : undefined
      if (store) add(record.issuedAt, { kind: 'set-unique', to: store, user: record.address, actionId: hubActionIdOf(record, what) }, what)
      continue
    }
    if (record.circuitId === null) continue
    const { expiry, publicValues, revokedAt } = hubSbtOf(record, what)
    const slot = { to: network.contracts.hub, subject: record.address, circuitId: record.circuitId }
    add(record.issuedAt, { kind: 'set-sbt', ...slot, expiry, publicValues: [...publicValues] }, what)
    if (revokedAt !== undefined && !replacedBy(records, record, index, revokedAt)) add(revokedAt, { kind: 'revoke-sbt', ...slot }, what)
  }

  // Clean hands: one Sign Protocol attestation per id, from the rows of this chain's schemas.
  const signProtocol = network.contracts.signProtocol
  if (signProtocol) {
    const byId = new Map<bigint, AttestationRow[]>()
    for (const row of world.attestations) {
      const schema = parseFullSchemaId(row.fullSchemaId)
      if (!schema || schema.chainId !== network.chainId) continue
      const id = attestationIdOf(row)
      const rows = byId.get(id)
      if (rows) rows.push(row)
      else byId.set(id, [row])
    }
    for (const [attestationId, rows] of byId) {
      const attestation = attestationOf(attestationId, rows)
      const what = `attestation ${rows[0]!.attestationId}`
      add(attestation.time, { kind: 'attest', to: signProtocol, attestationId, ...attestation.fields }, what)
      if (attestation.revoked) add(attestation.time, { kind: 'revoke-attestation', to: signProtocol, attestationId }, what)
    }
  }

  // Passport on chain: each push writes the decoder's score (4 decimals) in the first block at or
  // after it; a revocation deletes it. A push replaces the address's earlier one.
  const decoder = network.contracts.passportDecoder
  if (decoder) {
    for (const [index, push] of (world.onchainPassports ?? []).entries()) {
      const what = `on-chain Passport ${index} (${push.address})`
      const user = getAddress(push.address.toLowerCase())
      const score = decoderUnits(push.score)
      if (score < 0n || score >= 2n ** 32n || !Number.isSafeInteger(push.pushedAt) || !Number.isSafeInteger(push.expiresAt) || push.expiresAt < 0) {
        throw new InvalidParameterError({ parameter: 'world', reason: `${what} has score "${push.score}" (expected 4 decimals, at most a uint32 of units), pushedAt ${push.pushedAt} and expiresAt ${push.expiresAt} (whole Unix seconds).` })
      }
      add(push.pushedAt, { kind: 'set-passport-score', to: decoder, user, score, time: BigInt(push.pushedAt), expirationTime: BigInt(push.expiresAt) }, what)
      if (push.revokedAt !== null && push.revokedAt !== undefined) add(push.revokedAt, { kind: 'revoke-passport-score', to: decoder, user }, what)
    }
  }

  const blocks = new Map<number, PlannedBlock>()
  for (const event of events.sort((a, b) => a.time - b.time || a.order - b.order)) {
    const blockNumber = firstBlockAtOrAfter(event.time, base)
    if (blockNumber < 1) {
      throw new InvalidParameterError({
        parameter: 'world',
        reason: `${event.what} happens at ${event.time}, not after the chain's genesis (${base.genesisTime}): block 0 is the genesis block, so nothing can be written at or before it.`,
      })
    }
    let block = blocks.get(blockNumber)
    if (!block) blocks.set(blockNumber, (block = { blockNumber: BigInt(blockNumber), timestamp: BigInt(blockToTime(BigInt(blockNumber), base)), writes: [] }))
    block.writes.push(event.write)
  }
  return { network, blocks: [...blocks.values()].sort((a, b) => (a.blockNumber < b.blockNumber ? -1 : 1)) }
}

/** True when another SBT of the same address and circuit replaced `record` at or before `time` (the server reads the newest). */
function replacedBy(records: ReadonlyArray<{ record: Verification; index: number }>, record: Verification, index: number, time: number): boolean {
  return records.some(
    ({ record: other, index: otherIndex }) =>
      other !== record &&
      other.source !== 'legacy-store' &&
      other.circuitId !== null &&
      record.circuitId !== null &&
      other.circuitId.toLowerCase() === record.circuitId.toLowerCase() &&
      other.address.toLowerCase() === record.address.toLowerCase() &&
      other.issuedAt <= time &&
      (other.issuedAt > record.issuedAt || (other.issuedAt === record.issuedAt && otherIndex > index)),
  )
}

/** `onchain_evm_10_0x8` -> chain 10, schema 8; undefined for any other form. */
function parseFullSchemaId(fullSchemaId: string): { chainId: number; schemaId: bigint } | undefined {
  const match = /^onchain_evm_(\d+)_(0x[0-9a-fA-F]{1,16})$/.exec(fullSchemaId)
  return match ? { chainId: Number(match[1]), schemaId: BigInt(match[2]!) } : undefined
}

function attestationIdOf(row: AttestationRow): bigint {
  const text = row.attestationId
  const id = /^0x[0-9a-fA-F]{1,16}$/.test(text) ? BigInt(text) : /^\d{1,20}$/.test(text) ? BigInt(text) : undefined
  if (id === undefined || id > maxUint64) {
    throw new InvalidParameterError({ parameter: 'world', reason: `Attestation row of ${row.address} has attestation id "${text}": expected a uint64 (hex or decimal).` })
  }
  return id
}

/** The on-chain attestation behind the rows of one id; the rows must agree on everything on-chain. */
function attestationOf(attestationId: bigint, rows: readonly AttestationRow[]) {
  const shapes = rows.map((row) => {
    const schema = parseFullSchemaId(row.fullSchemaId)!
    let attester: Address
    try {
      attester = getAddress(row.attester.toLowerCase())
    } catch {
      throw new InvalidParameterError({ parameter: 'world', reason: `Attestation ${row.attestationId} names attester "${row.attester}", which is not an address.` })
    }
    const validUntil = parseValidUntil(row.validUntil) ?? 0n
    if (validUntil > maxUint64) {
      throw new InvalidParameterError({ parameter: 'world', reason: `Attestation ${row.attestationId} has validUntil ${String(row.validUntil)}, more than a uint64.` })
    }
    if (!Number.isSafeInteger(row.attestTimestamp) || row.attestTimestamp < 0) {
      throw new InvalidParameterError({ parameter: 'world', reason: `Attestation ${row.attestationId} has attestTimestamp ${String(row.attestTimestamp)}: expected Unix milliseconds.` })
    }
    return {
      time: Math.ceil(row.attestTimestamp / 1000),
      revoked: row.revoked,
      fields: {
        schemaId: schema.schemaId,
        attester,
        validUntil,
        recipients: row.recipients.map((recipient) => encodeAbiParameters([{ type: 'string' }], [recipient])),
      },
    }
  })
  const [first, ...others] = shapes
  const key = (shape: (typeof shapes)[number]) =>
    JSON.stringify([shape.time, shape.revoked, shape.fields.schemaId.toString(), shape.fields.attester, shape.fields.validUntil.toString(), shape.fields.recipients])
  if (others.some((shape) => key(shape) !== key(first!))) {
    throw new InvalidParameterError({
      parameter: 'world',
      reason: `The rows of attestation 0x${attestationId.toString(16)} disagree on its schema, attester, validUntil, attestTimestamp, revocation or recipients: one attestation cannot be all of them.`,
    })
  }
  return first!
}

/** A pushed score as the decoder stores it (units of 10^-4), or -1 unless written with exactly 4 decimals. */
function decoderUnits(score: string): bigint {
  try {
    const units = decimalToUnits(readDecimal(score), passportDecoderDecimals)
    return unitsToDecimal(units, passportDecoderDecimals) === score ? units : -1n
  } catch {
    return -1n
  }
}
