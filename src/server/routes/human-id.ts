/**
 * Interface E of the reference server: individual verifications (E1-E3), the voting-strategy
 * endpoints (E4-E6) and clean hands (E7), answered from the verification, attestation and
 * clean-hands SBT records of the state.
 *
 * Unlike the public service, E4-E6 answer as of the `snapshot` block (on a space's own network, at
 * that block's time by the network's block clock), honour a custom `action-id`, serve only the
 * chain ids whose clocks they know, check revocation as of the block, answer a whole
 * batch from one pass over the records, and give a malformed address 0 (reported in `errors`)
 * instead of failing the batch.
 */
import { Hono } from 'hono'
import { encodePacked, keccak256, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  cleanHandsQuerySchema,
  humanIdCredentialSchema,
  humanIdNetworkSchema,
  verificationQuerySchema,
  votingStrategyQuerySchema,
  type HumanIdCredential,
  type HumanIdNetwork,
  type VerificationResult,
} from '../../schemas/human-id.js'
import { isAddressInAnyCase, isValidAddress } from '../../utils/address.js'
import { blockClocks, estimateBlockTime, type BlockClock } from '../../chain/block-at-time.js'
import type { HumanIdIssuerCircuit } from '../../chain/constants.js'
import { hasValidCleanHandsAttestation } from '../../verify/clean-hands.js'
import {
  classifySbt,
  judgeHumanIdCredential,
  type HumanIdCredentialVerdict,
  type JudgeHumanIdCredentialParameters,
  type SbtCallResult,
  type SbtOwnersState,
  type SbtVerdict,
} from '../../verify/sbt.js'
import {
  baseSepoliaChainId,
  cleanHandsAttester,
  cleanHandsFullSchemaId,
  humanIdCircuitIds,
  humanIdIssuers,
  optimismChainId,
} from '../../world/constants.js'
import { blockToTime, timeToBlock, type ChainTimeBase } from '../../world/chain-time.js'
import { cleanHandsSbtOf, hubActionIdOf, hubSbtOf, type HubSbt } from '../../world/hub-state.js'
import type { AttestationRow, CleanHandsSbt, Verification } from '../../world/types.js'
import type { ServerContext } from '../context.js'
import { answerError, HttpError } from '../errors.js'
import { parseQuery } from '../request.js'

// ---------------------------------------------------------------------------------------------
// Time: blocks and seconds (the chain clock is the world's: src/world/chain-time.ts)
// ---------------------------------------------------------------------------------------------

export { blockToTime, timeToBlock, type ChainTimeBase }

/** `expirationDate` of a verification that never expires (a permanent store): 9999-12-31T23:59:59Z. */
export const neverExpires = 253_402_300_799

/** Whole Unix seconds of a Date or Unix milliseconds. */
export function toSeconds(now: Date | number): number {
  const ms = typeof now === 'number' ? now : now.getTime()
  return Math.floor(ms / 1000)
}

/**
 * Resolves a `snapshot` (a block number or `latest`) to the Unix time the answer is computed at.
 *
 * @returns the time, or why the block cannot be answered (in the future).
 */
export function resolveSnapshotTime(
  snapshot: bigint | 'latest',
  options: { now: number; base: ChainTimeBase },
): { ok: true; time: number; block: number } | { ok: false; detail: string } {
  const latest = timeToBlock(options.now, options.base)
  if (snapshot === 'latest') return { ok: true, time: options.now, block: latest }
  if (snapshot > BigInt(latest)) {
    return { ok: false, detail: `snapshot block ${snapshot} is in the future: the latest block is ${latest}.` }
  }
  return { ok: true, time: blockToTime(snapshot, options.base), block: Number(snapshot) }
}

/**
 * Resolves a `snapshot` block of a space's own network (not a hub chain: Ethereum, Base, Arbitrum,
 * Polygon) to the time the hub chain is judged at, by that network's block clock
 * (`estimateBlockTime`): the clock's time of the block, or now when that is later but the clock's
 * drift allows the block to exist already. A block that comes after now even at the clock's
 * earliest is in the future.
 *
 * @example
 * resolveClockSnapshotTime(24_000_000n, { now: 1_766_000_000, clock: ethereumClock })
 */
export function resolveClockSnapshotTime(
  snapshot: bigint | 'latest',
  options: { now: number; clock: BlockClock },
): { ok: true; time: number } | { ok: false; detail: string } {
  if (snapshot === 'latest') return { ok: true, time: options.now }
  const { timestamp, earliest } = estimateBlockTime(options.clock, snapshot)
  if (earliest > BigInt(options.now)) {
    const iso = (seconds: bigint | number) => new Date(Number(seconds) * 1000).toISOString()
    return {
      ok: false,
      detail: `snapshot block ${snapshot} is in the future: by ${options.clock.name ?? 'the network'}'s block clock it comes at ${iso(timestamp)} (${iso(earliest)} at the earliest), after now (${iso(options.now)}).`,
    }
  }
  return { ok: true, time: Math.min(Number(timestamp), options.now) }
}

// ---------------------------------------------------------------------------------------------
// Verification records
// ---------------------------------------------------------------------------------------------

/**
 * The verdict on a verification: the verifier's own ({@link HumanIdCredentialVerdict}, from
 * `src/verify/sbt.ts`), with `expirationDate` as E1-E3 send it (Unix seconds; {@link neverExpires}
 * for a permanent store or an SBT that never expires).
 */
export type VerificationVerdict = HumanIdCredentialVerdict & { expirationDate?: number | undefined }

export type EvaluateVerificationParameters = {
  credential: HumanIdCredential
  network: HumanIdNetwork
  actionId: bigint
  /** Unix seconds the answer is computed at (now for E1-E3, the snapshot block's time for E4-E6). */
  at: number
}

/** The hub circuit of each credential with the issuer it must carry; gov-id falls back on the zk passport. */
/** Each circuit's id and issuer as an integer, parsed once (not once per address judged). */
const circuits = Object.fromEntries(
  (Object.keys(humanIdIssuers) as HumanIdIssuerCircuit[]).map((circuit) => [circuit, { circuitId: humanIdCircuitIds[circuit], issuer: BigInt(humanIdIssuers[circuit]) }]),
) as Record<HumanIdIssuerCircuit, { circuitId: string; issuer: bigint }>

/** The permanent stores exist on Optimism for gov-id and phone only. */
const legacyStoreCredentials: ReadonlySet<HumanIdCredential> = new Set(['gov-id', 'phone'])

/**
 * What the Hub answers at time `at` for an SBT ({@link hubSbtOf} of a record: the latest of its
 * circuit issued at or before `at`): `getSBT` reverts when the SBT is revoked by then or `expiry <
 * at`, else returns expiry and public values; `sbtOwners` returns expiry and revocation. An SBT that
 * never expires has expiry 2^256-1. This is the reference server standing in for the chain; the rule
 * applied to the answer is the verifier's ({@link classifySbt}).
 */
export function hubReadsAt(sbt: HubSbt | undefined, at: number): { getSBT: SbtCallResult; sbtOwners: SbtOwnersState } {
  if (!sbt) return { getSBT: { status: 'reverted' }, sbtOwners: { expiry: 0n, revoked: false } }
  const { expiry, publicValues } = sbt
  const revoked = sbt.revokedAt !== undefined && sbt.revokedAt <= at
  const sbtOwners = { expiry, revoked }
  if (revoked || expiry < BigInt(at)) return { getSBT: { status: 'reverted' }, sbtOwners }
  return { getSBT: { status: 'success', expiry, publicValues, revoked: false }, sbtOwners }
}

/** A record's SBT, with the record's fields it was mapped from. */
type KeptSbt = { from: Verification; sbt: HubSbt }

const keptSbts = new WeakMap<Verification, KeptSbt>()

/** The fields of a record its SBT comes from. */
const sbtFields = ['expiresAt', 'address', 'actionId', 'nullifier', 'issuer', 'emptyPublicValues', 'revoked', 'revokedAt', 'issuedAt'] as const

/**
 * The SBT of a record ({@link hubSbtOf}), mapped once per record and again only when a field it
 * comes from has changed (records may be edited in place).
 */
function sbtOf(record: Verification): HubSbt {
  const kept = keptSbts.get(record)
  if (kept && sbtFields.every((field) => kept.from[field] === record[field])) return kept.sbt
  const sbt = hubSbtOf(record)
  keptSbts.set(record, { from: { ...record }, sbt })
  return sbt
}

/** The verdict on the SBT an address holds for a circuit at `at` (the latest issued by then). */
function sbtVerdictAt(records: readonly Verification[], circuit: HumanIdIssuerCircuit, parameters: EvaluateVerificationParameters): SbtVerdict {
  const { circuitId, issuer } = circuits[circuit]
  let current: Verification | undefined
  for (const record of records) {
    if (record.network !== parameters.network || record.source === 'legacy-store' || record.circuitId === null) continue
    if (record.circuitId.toLowerCase() !== circuitId || record.issuedAt > parameters.at) continue
    if (!current || record.issuedAt >= current.issuedAt) current = record
  }
  // No SBT: the Hub reverts and shows none (what classifySbt says of hubReadsAt(undefined)).
  if (!current) return { reason: 'none' }
  const sbt = sbtOf(current)
  return judgeSbtAt(sbt, { at: parameters.at, actionId: parameters.actionId, issuer })
}

/**
 * The verifier's verdict ({@link classifySbt}) on an SBT at time `at`, from what its chain answers
 * then ({@link hubReadsAt}): revoked by then, then expired (`expiry < at`: an expiry equal to `at`
 * still counts), then the issuer and the action id.
 */
function judgeSbtAt(sbt: HubSbt, parameters: { at: number; actionId: bigint; issuer: bigint }): SbtVerdict {
  const { at, actionId, issuer } = parameters
  const verdict = classifySbt({ ...hubReadsAt(sbt, at), blockTimestamp: BigInt(at), actionId, issuer })
  // The reads are consistent by construction: an SBT whose getSBT reverts is revoked, expired or absent.
  if (verdict.status !== 'classified') throw new Error(`internal: the Hub stand-in answered an SBT the rule calls ${verdict.status}`)
  return verdict
}

/**
 * Tells whether an address holds a valid verification for a credential, network and action at a
 * time, from its verification records (all networks and credentials; filtered here), by the
 * verifier's rules: the Hub's answer at `at` for the latest SBT of the credential's circuit
 * ({@link hubReadsAt}) judged by {@link classifySbt} (revoked, then `expiry < at`: an expiry equal to
 * the time is still valid, as the Hub reverts only when `expiry < block.timestamp`; then issuer,
 * action id, recipient), combined by {@link judgeHumanIdCredential}: the credential's SBT, else
 * (gov-id) the zk-passport SBT, else (Optimism, gov-id and phone) a permanent-store entry for the
 * action issued at or before `at`.
 *
 * @returns the verifier's verdict, with `expirationDate` when valid ({@link neverExpires} for a
 * permanent store or an SBT that never expires).
 * @example
 * evaluateVerification(records, { credential: 'gov-id', network: 'optimism', actionId: 123456789n, at: 1_750_000_000 })
 */
export function evaluateVerification(
  records: readonly Verification[],
  parameters: EvaluateVerificationParameters,
): VerificationVerdict {
  const { credential, network, at } = parameters
  const primary = sbtVerdictAt(records, credential, parameters)
  const reads: JudgeHumanIdCredentialParameters = { primary }
  if (primary.reason !== 'valid' && credential === 'gov-id') reads.passport = sbtVerdictAt(records, 'zk-passport', parameters)
  if (primary.reason !== 'valid' && reads.passport?.reason !== 'valid' && network === 'optimism' && legacyStoreCredentials.has(credential)) {
    reads.legacy = records.some(
      (record) =>
        record.source === 'legacy-store' &&
        record.network === network &&
        record.credential === credential &&
        record.issuedAt <= at &&
        hubActionIdOf(record) === parameters.actionId,
    )
  }
  const verdict = judgeHumanIdCredential(reads)
  if (!verdict.valid) return verdict
  const expirationDate = verdict.reason === 'legacy' || verdict.expiresAt > BigInt(neverExpires) ? neverExpires : Number(verdict.expiresAt)
  return { ...verdict, expirationDate }
}

/** Groups verification records by lowercase address (one pass; batches then read their own). */
export function indexVerifications(records: readonly Verification[]): Map<string, Verification[]> {
  const index = new Map<string, Verification[]>()
  for (const record of records) {
    const key = record.address.toLowerCase()
    const list = index.get(key)
    if (list) list.push(record)
    else index.set(key, [record])
  }
  return index
}

// ---------------------------------------------------------------------------------------------
// Voting strategies (E4-E6)
// ---------------------------------------------------------------------------------------------

/**
 * The hub chains E4-E6 serve on the world's own chain (the blocks the reference server and its local
 * chain mine), and the network whose verifications each holds.
 */
export const votingStrategyNetworks: Readonly<Record<number, HumanIdNetwork>> = Object.freeze({
  [optimismChainId]: 'optimism',
  [baseSepoliaChainId]: 'base-sepolia',
})

/**
 * Where E4-E6 judge a space's snapshot for a chain id: a hub chain ({@link votingStrategyNetworks})
 * at its block on the world's chain; any other network with a block clock (`blockClocks`:
 * Ethereum, Polygon, Base, Arbitrum One) on Optimism, the hub chain, at its block's time by that
 * clock; undefined for a chain id without a clock (refused: never "read Optimism").
 */
export function votingStrategyChain(chainId: number): { network: HumanIdNetwork; clock?: BlockClock } | undefined {
  const hub = votingStrategyNetworks[chainId]
  if (hub) return { network: hub }
  const clock = blockClocks[chainId]
  return clock ? { network: 'optimism', clock } : undefined
}

/** The chain ids E4-E6 answer for, named: `1 (Ethereum), 10 (Optimism), ...`. */
export function describeVotingStrategyChains(): string {
  return Object.entries(blockClocks)
    .map(([chainId, clock]) => `${chainId} (${clock.name ?? 'unnamed'})`)
    .join(', ')
}

/** One address of an E4-E6 batch that could not be checked (it scores 0). */
export type VotingStrategyError = { address: string; error: string }

/** E4-E6 answer: `score` for every distinct address given, `errors` for the malformed ones (when any). */
export type VotingStrategyAnswer = {
  score: Array<{ address: string; score: 0 | 1 }>
  errors?: VotingStrategyError[]
}

/**
 * Scores a batch at one time: 1 for a valid verification, 0 otherwise. Each distinct address string
 * is answered once, in the order given, as given; a malformed one scores 0 and is listed in
 * `errors`. The answer of an address never depends on the others.
 */
export function scoreVotingStrategy(
  records: readonly Verification[],
  parameters: Omit<EvaluateVerificationParameters, 'at'> & { addresses: readonly string[]; at: number },
): VotingStrategyAnswer {
  return scoreIndexedVotingStrategy(indexVerifications(records), parameters)
}

/** {@link scoreVotingStrategy} over records already grouped by {@link indexVerifications}. */
function scoreIndexedVotingStrategy(
  index: ReadonlyMap<string, readonly Verification[]>,
  parameters: Omit<EvaluateVerificationParameters, 'at'> & { addresses: readonly string[]; at: number },
): VotingStrategyAnswer {
  const seen = new Set<string>()
  const score: VotingStrategyAnswer['score'] = []
  const errors: VotingStrategyError[] = []
  for (const address of parameters.addresses) {
    if (seen.has(address)) continue
    seen.add(address)
    if (!isValidAddress(address)) {
      score.push({ address, score: 0 })
      errors.push({
        address,
        error: 'Invalid address: expected 0x followed by 40 hex characters (mixed case must be a valid EIP-55 checksum).',
      })
      continue
    }
    const verdict = evaluateVerification(index.get(address.toLowerCase()) ?? [], parameters)
    score.push({ address, score: verdict.valid ? 1 : 0 })
  }
  return errors.length > 0 ? { score, errors } : { score }
}

// ---------------------------------------------------------------------------------------------
// Clean hands (E7)
// ---------------------------------------------------------------------------------------------

/** The clean-hands circuit id. E7 sends it as a JSON integer (the spec types `circuitId` as a number). */
export const cleanHandsCircuitId: Hex = humanIdCircuitIds['clean-hands']

/** Why an address is (not) clean-handed. */
export type CleanHandsVerdict = { valid: true; source: 'attestation' | 'sbt' } | { valid: false }

/**
 * Tells whether an address has clean hands at `now` (Unix seconds):
 *
 * - an EVM address: at least one of its attestation-index rows satisfies rule 6 of E (the shared
 *   predicate of `src/verify/clean-hands.ts`). Attestations carry no action id: they count for any.
 * - any address (NEAR account, Aptos address): a clean-hands SBT on that chain, issued by `now`,
 *   that the verifier's SBT rule ({@link classifySbt}, as for the Hub's SBTs) holds valid at `now`:
 *   not revoked by then (a revocation after `now` does not count yet), not expired (`expiresAt <
 *   now`; an expiry equal to `now` still counts, on every chain alike), for the action id. NEAR ids
 *   are compared exactly, hex addresses case-insensitively.
 */
export function evaluateCleanHands(
  records: { attestations: readonly AttestationRow[]; cleanHandsSbts: readonly CleanHandsSbt[] },
  parameters: { address: string; actionId: bigint; now: number; attester?: string; schemaId?: string },
): CleanHandsVerdict {
  const { address, actionId, now } = parameters
  if (isAddressInAnyCase(address)) {
    const lower = address.toLowerCase()
    const rows = records.attestations.filter((row) => row.address.toLowerCase() === lower)
    const options = { now, attester: parameters.attester ?? cleanHandsAttester, schemaId: parameters.schemaId ?? cleanHandsFullSchemaId }
    if (hasValidCleanHandsAttestation(rows, options)) return { valid: true, source: 'attestation' }
  }
  const key = /^0x[0-9a-fA-F]+$/.test(address) ? address.toLowerCase() : address
  const holds = records.cleanHandsSbts.some((record) => {
    const recordKey = /^0x[0-9a-fA-F]+$/.test(record.address) ? record.address.toLowerCase() : record.address
    if (recordKey !== key || record.issuedAt > now) return false
    // The world keeps no recipient or issuer of these SBTs (see cleanHandsSbtOf): the record is the address's own.
    const sbt = cleanHandsSbtOf(record)
    return judgeSbtAt(sbt, { at: now, actionId, issuer: 0n }).reason === 'valid'
  })
  return holds ? { valid: true, source: 'sbt' } : { valid: false }
}

/**
 * The 32-byte digest E7 signs, as the public service does:
 * `keccak256(abi.encodePacked(uint256 circuitId, uint256 actionId, address user))`; for an address
 * that is not an EVM address (NEAR, Aptos), `string user` instead of `address user`.
 */
export function cleanHandsDigest(parameters: { circuitId: Hex; actionId: bigint; address: string }): Hex {
  const { circuitId, actionId, address } = parameters
  if (isAddressInAnyCase(address)) {
    return keccak256(encodePacked(['uint256', 'uint256', 'address'], [BigInt(circuitId), actionId, address.toLowerCase() as Address]))
  }
  return keccak256(encodePacked(['uint256', 'uint256', 'string'], [BigInt(circuitId), actionId, address]))
}

/**
 * The server's E7 signing key: derived from the state's JWT secret (so it is kept with the state and
 * survives restarts) with a label that keeps the two uses apart.
 */
export function deriveCleanHandsSignerKey(secret: string): Hex {
  return keccak256(new TextEncoder().encode(`personhood:clean-hands-signer:${secret}`))
}

/**
 * Signs an E7 answer: EIP-191 (`personal_sign`) over {@link cleanHandsDigest}. Verify with
 * `recoverMessageAddress({ message: { raw: digest }, signature })`.
 */
export async function signCleanHands(
  signerKey: Hex,
  parameters: { circuitId: Hex; actionId: bigint; address: string },
): Promise<Hex> {
  return privateKeyToAccount(signerKey).signMessage({ message: { raw: cleanHandsDigest(parameters) } })
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

/** What the E routes read; {@link createHumanIdRoutes} builds it from the server context. */
export type HumanIdSource = {
  now: () => Date | number
  verifications: () => readonly Verification[]
  attestations: () => readonly AttestationRow[]
  cleanHandsSbts: () => readonly CleanHandsSbt[]
  /** Time base per network (block -> time) for E4-E6. The reference server has one for both. */
  chain: (network: HumanIdNetwork) => ChainTimeBase
  /** The private key E7 signs with. */
  signerKey: () => Hex
  /**
   * A number that changes whenever the verification records do: the records are grouped by address
   * once per revision. Without it, once per array of records and length (a source that edits
   * records in place must give one).
   */
  verificationsRevision?: () => number
}

/**
 * The routes of interface E1-E7 over a {@link HumanIdSource}: mount under the verification base
 * (`/human-id` in the reference server).
 */
export function createHumanIdApp(source: HumanIdSource): Hono {
  const app = new Hono()
  app.onError(answerError)
  let grouped: { records: readonly Verification[]; length: number; revision: number | undefined; index: Map<string, Verification[]> } | undefined
  /** The verification records grouped by lowercase address, regrouped only when they change. */
  const byAddress = () => {
    const records = source.verifications()
    const revision = source.verificationsRevision?.()
    if (!grouped || grouped.records !== records || grouped.length !== records.length || grouped.revision !== revision) {
      grouped = { records, length: records.length, revision, index: indexVerifications(records) }
    }
    return grouped.index
  }

  app.get('/sybil-resistance/:credential/:network', (c) => {
    const credential = humanIdCredentialSchema.safeParse(c.req.param('credential'))
    if (!credential.success) throw new HttpError(404, 'Not Found')
    const network = humanIdNetworkSchema.safeParse(c.req.param('network'))
    if (!network.success) {
      throw new HttpError(400, `Unsupported network "${c.req.param('network').slice(0, 40)}": use optimism or base-sepolia.`)
    }
    const query = parseQuery(c, verificationQuerySchema, 'plain')
    const verdict = evaluateVerification(
      byAddress().get(query.user.toLowerCase()) ?? [],
      { credential: credential.data, network: network.data, actionId: query.actionId, at: toSeconds(source.now()) },
    )
    const body: VerificationResult = verdict.valid ? { result: true, expirationDate: verdict.expirationDate ?? neverExpires } : { result: false }
    return c.json(body)
  })

  app.get('/voting-strategies/sybil-resistance/:credential', (c) => {
    const credential = humanIdCredentialSchema.safeParse(c.req.param('credential'))
    if (!credential.success) throw new HttpError(404, 'Not Found')
    const query = parseQuery(c, votingStrategyQuerySchema, 'plain')
    const chain = votingStrategyChain(query.network)
    if (!chain) throw new HttpError(400, `Unsupported network ${query.network}: this server answers for chain ids ${describeVotingStrategyChains()}.`)
    const { network } = chain
    const now = toSeconds(source.now())
    const snapshot = chain.clock
      ? resolveClockSnapshotTime(query.snapshot, { now, clock: chain.clock })
      : resolveSnapshotTime(query.snapshot, { now, base: source.chain(network) })
    if (!snapshot.ok) throw new HttpError(400, snapshot.detail)
    return c.json(
      scoreIndexedVotingStrategy(byAddress(), {
        credential: credential.data,
        network,
        actionId: query.actionId,
        addresses: query.addresses,
        at: snapshot.time,
      }),
    )
  })

  app.get('/attestation/sbts/clean-hands', async (c) => {
    const query = parseQuery(c, cleanHandsQuerySchema, 'plain')
    const { address, actionId } = query
    const verdict = evaluateCleanHands(
      { attestations: source.attestations(), cleanHandsSbts: source.cleanHandsSbts() },
      { address, actionId, now: toSeconds(source.now()) },
    )
    if (!verdict.valid) return c.json({ isUnique: false })
    const signature = await signCleanHands(source.signerKey(), { circuitId: cleanHandsCircuitId, actionId, address })
    // circuitId is a JSON integer, as the spec types it, written exactly (a bytes32 exceeds 2^53:
    // JSON.parse rounds it; read it with a bigint-aware parser or compare with the known constant).
    const body = `{"isUnique":true,"signature":${JSON.stringify(signature)},"circuitId":${BigInt(cleanHandsCircuitId).toString()}}`
    return c.body(body, 200, { 'content-type': 'application/json' })
  })

  return app
}

/**
 * The E1-E7 routes of the reference server, reading the state of `ctx.store` at `ctx.now()`.
 *
 * @example
 * app.route('/human-id', createHumanIdRoutes(ctx))
 */
export function createHumanIdRoutes(ctx: ServerContext): Hono {
  return createHumanIdApp({
    now: () => ctx.now(),
    verifications: () => ctx.store.state.verifications,
    attestations: () => ctx.store.state.attestations,
    cleanHandsSbts: () => ctx.store.state.cleanHandsSbts,
    chain: () => ctx.blockTime(),
    signerKey: () => deriveCleanHandsSignerKey(ctx.config.jwtSecret),
    verificationsRevision: () => ctx.store.partRevision('verifications'),
  })
}
