/**
 * `verifyCredentials`: which addresses hold a valid Human ID credential (gov-id, phone, biometrics)
 * or clean-hands attestation at one block, read from the chain in a few multicall requests.
 */
import type { Address, Hex } from 'viem'
import {
  getNetwork,
  humanCredentials,
  type HumanCredential,
  type HumanIdCircuit,
  type NetworkConstants,
  type NetworkName,
  type NetworkOverrides,
} from '../chain/constants.js'
import { decodeGetSbt, decodeSbtOwners, getSbtCall, sbtId, sbtOwnersCall, type GetSbtResult, type SbtOwnersResult } from '../chain/hub.js'
import { decodeIsUniqueForAction, isUniqueForActionCall } from '../chain/legacy.js'
import {
  blockTimestampCall,
  decodeBlockTimestamp,
  defaultMulticallBatchSize,
  defaultMulticallConcurrency,
  multicallAt,
  type CallResult,
  type ContractCall,
} from '../chain/multicall.js'
import { declaredChainId, toPublicClient, type ChainClient } from '../chain/provider.js'
import { chainReadError, readBlockHeader, readChainId, type ChainErrorContext } from '../chain/rpc.js'
import { decodeGetAttestation, decodeRecipient, getAttestationCall, type OnchainAttestation } from '../chain/sign-protocol.js'
import { InvalidParameterError, type ChainReadError } from '../errors/index.js'
import { normalizeAddress } from '../utils/address.js'
import { parseActionId, parseBlockNumber, parsePositiveInteger } from '../utils/parse.js'
import {
  findCleanHandsRows,
  parseAttestationLookup,
  type AttestationIndex,
  type AttestationLookup,
  type AttestationLookupSummary,
} from './attestation-lookup.js'
import {
  checkOnchainCleanHandsAttestation,
  cleanHandsRowRank,
  createCleanHandsRowCheck,
  type CleanHandsRow,
  type CleanHandsRowReason,
  type OnchainCleanHandsReason,
} from './clean-hands.js'
import type { MalformedAttestationRow } from '../schemas/attestation.js'
import { classifySbt, judgeHumanIdCredential, type JudgeHumanIdCredentialParameters, type SbtClassification, type SbtReason } from './sbt.js'

/**
 * Why a credential counts or not. `legacy`: valid through a permanent store (no expiry, no
 * revocation). `none`: nothing found. The others name the check that failed.
 */
export type CredentialReason =
  | 'valid'
  | 'none'
  | 'expired'
  | 'revoked'
  | 'wrong-action'
  | 'wrong-issuer'
  | 'wrong-recipient'
  | 'wrong-attester'
  | 'wrong-schema'
  | 'legacy'
  | 'malformed'

/** A Hub SBT read: the contract, the call, and what it answered. */
export type SbtEvidence = {
  kind: 'sbt'
  circuit: HumanIdCircuit
  /** The Hub. */
  contract: Address
  subject: Address
  circuitId: Hex
  getSBT: GetSbtResult
  /** `keccak256(abi.encodePacked(subject, circuitId))`, the key `sbtOwners` was read with. */
  sbtId?: Hex | undefined
  /** Read when `getSBT` reverted: it tells none, expired and revoked apart. */
  sbtOwners?: SbtOwnersResult | undefined
  expected: { actionId: bigint; issuer: bigint }
  reason: SbtReason
}

/** A permanent-store read: `isUniqueForAction(user, actionId)`. */
export type LegacyStoreEvidence = {
  kind: 'legacy-store'
  contract: Address
  call: 'isUniqueForAction'
  user: Address
  actionId: bigint
  isUnique: boolean
}

/**
 * The attestation index's answer for an address (its rows follow as `attestation` evidence), and
 * how it was read: `address` (its own E8 pages) or `listing` (the rows of the listing by schema and
 * attester that name it).
 */
export type AttestationIndexEvidence = { kind: 'attestation-index'; address: Address; rowCount: number; lookup: 'address' | 'listing' }

/** One index row, the rule's verdict on it and, when it passed, the on-chain attestation at the block. */
export type AttestationEvidence = {
  kind: 'attestation'
  /** The id as the index gave it. */
  attestationId: string | undefined
  /** The row as the index sent it (a malformed one is kept, judged `malformed`). */
  row: CleanHandsRow | MalformedAttestationRow
  rowReason: CleanHandsRowReason
  onchain?:
    | {
        contract: Address
        call: 'getAttestation'
        attestationId: bigint
        attestation: OnchainAttestation
        /** `recipients[0]` decoded as an ABI string. */
        recipient: string | undefined
        reason: OnchainCleanHandsReason
      }
    | undefined
}

/** Everything a result rests on, for an auditor to re-check. */
export type CredentialEvidence = SbtEvidence | LegacyStoreEvidence | AttestationIndexEvidence | AttestationEvidence

/**
 * The answer for one address and credential. `expiresAt` (Unix seconds) is set when valid and
 * expiring (not for `legacy`).
 *
 * @example
 * import type { CredentialResult } from 'personhood'
 * const result: CredentialResult = { valid: false, reason: 'revoked', evidence: [] }
 */
export type CredentialResult = {
  valid: boolean
  reason: CredentialReason
  expiresAt?: bigint | undefined
  evidence: CredentialEvidence[]
}

export type { AttestationIndex, AttestationLookup, AttestationLookupSummary } from './attestation-lookup.js'

/**
 * Parameters of {@link verifyCredentials}.
 *
 * @example
 * import type { VerifyCredentialsParameters } from 'personhood'
 * const parameters: VerifyCredentialsParameters<'phone'> = { client, addresses, credentials: ['phone'], blockNumber: 130_000_000n }
 */
export type VerifyCredentialsParameters<credential extends HumanCredential = HumanCredential> = {
  /** A viem client, an ethers v5/v6 provider, or an EIP-1193 provider. */
  client: ChainClient
  /** Addresses: lower case or EIP-55 checksummed. Duplicates (in any case) are read once. */
  addresses: readonly string[]
  /** The credentials to check. */
  credentials: readonly credential[]
  /** The action id SBTs must carry; default 123456789 (universal uniqueness). */
  actionId?: bigint | number | string | undefined
  /** The block to judge at; default the latest (pinned once, so every read uses the same block). */
  blockNumber?: bigint | number | 'latest' | undefined
  /** The network's constants: a name, a chain id or a full object; default the client's chain id. */
  network?: NetworkName | number | NetworkConstants | undefined
  /** Overrides of the network's constants (a test chain's chain id and contract addresses). */
  constants?: NetworkOverrides | undefined
  /** Read a sandbox network (Base Sepolia) anyway; results are marked `sandbox: true`. Default false. */
  allowSandbox?: boolean | undefined
  /** Required for `clean-hands`: the source of attestation rows. */
  attestationIndex?: AttestationIndex | undefined
  /**
   * How to read the index for clean hands: `auto` (default: the listing by schema and attester when
   * its pages are no more than the addresses and the index can list, else one read per address),
   * `listing` or `address`. Every candidate is confirmed on-chain at the block either way.
   */
  attestationLookup?: AttestationLookup | undefined
  /** Calls per multicall request, at most; default 500. */
  batchSize?: number | undefined
  /** Requests (multicall and index) in flight, at most; default 4. */
  concurrency?: number | undefined
}

/**
 * What {@link verifyCredentials} returns: the block it judged at, and per address and credential a
 * {@link CredentialResult}.
 *
 * @example
 * import type { VerifyCredentialsReturnType } from 'personhood'
 * const valid = (response: VerifyCredentialsReturnType<'gov-id'>) =>
 *   Object.entries(response.results).filter(([, entry]) => entry['gov-id'].valid).map(([address]) => address)
 */
export type VerifyCredentialsReturnType<credential extends HumanCredential = HumanCredential> = {
  /** The block every read was made at. */
  blockNumber: bigint
  /**
   * The block's hash, when its header was read: for `'latest'` (pinned to a number first) and for
   * `clean-hands`. Undefined when the block was given by number and no check needed its header.
   */
  blockHash?: Hex | undefined
  /**
   * The block's timestamp (Unix seconds), when a check needed it: always with `clean-hands` or
   * `'latest'` (from the header), and whenever a `getSBT` reverted (read inside a multicall with
   * Multicall3 `getCurrentBlockTimestamp`). Undefined when every SBT was read with a successful
   * `getSBT`: the Hub itself reverts `getSBT` when `expiry < block.timestamp`, so those were judged
   * at the block's timestamp without reading it. Never the wall clock.
   */
  blockTimestamp?: bigint | undefined
  /** The chain read: as the client declares it (viem `chain`, an ethers provider's network), else `eth_chainId`. */
  chainId: number
  network: string
  /** True when read on a sandbox network (with `allowSandbox`): not for production. */
  sandbox: boolean
  actionId: bigint
  /** Per lower-case address, per credential. */
  results: Record<Address, Record<credential, CredentialResult>>
  /** With `clean-hands`: how the attestation index was read (per address or the listing) and what it cost. */
  attestationLookup?: AttestationLookupSummary | undefined
}

type SbtCredential = Exclude<HumanCredential, 'clean-hands'>

/** One SBT being judged: the reads so far, and the verdict. */
type SbtSlot = {
  circuit: HumanIdCircuit
  circuitId: Hex
  issuer: bigint
  getSBT?: GetSbtResult
  sbtOwners?: SbtOwnersResult
}

type PairState = {
  address: Address
  credential: SbtCredential
  primary: SbtSlot
  passport?: SbtSlot
  legacy?: { contract: Address; isUnique?: boolean }
}

/** Calls to run in one multicall, each with what to do with its result. */
class CallPlan {
  readonly calls: ContractCall[] = []
  readonly handlers: ((result: CallResult) => void)[] = []
  add(call: ContractCall, handler: (result: CallResult) => void) {
    this.calls.push(call)
    this.handlers.push(handler)
  }
}

/**
 * Verifies Human ID credentials and clean-hands attestations for many addresses at one block.
 *
 * Validity is judged at the block's timestamp, never the wall clock: the same call at the same
 * block gives the same answer. SBTs are read with `getSBT` through Multicall3 `aggregate3` (a
 * reverting call fails alone), and `sbtOwners` tells none, expired and revoked apart; a valid SBT
 * carries `publicValues[2] == actionId` and `publicValues[4] == issuer` (as integers). gov-id also
 * accepts the zk-passport SBT and the permanent gov-id store; phone the permanent phone store.
 * Clean hands: rows from `attestationIndex` that pass rule 6 at the block's timestamp (schema,
 * attester, receiver, `validUntil`), each confirmed with `getAttestation` at the block (schema,
 * attester, not revoked, `validUntil`, `recipients[0]`). Revocation is judged on-chain at the block
 * only: the index's `revoked` flag is today's, and a revocation after the block must not change the
 * answer at that block.
 *
 * Requests: at most one `eth_call` per `batchSize` calls (one call per address and SBT credential;
 * failures and clean hands add a second round), with at most `concurrency` in flight. Plus
 * `eth_chainId` only when the client does not declare its chain (a viem client's `chain`, an ethers
 * provider's network), and one block header only for `'latest'` (pinned to a number first) or
 * `clean-hands` (its index rows are filtered at the block's timestamp). When an SBT check needs the
 * timestamp (a `getSBT` reverted), it is read inside the second round's multicall. Clean hands also
 * reads the attestation index, the cheaper way (`attestationLookup`, default `auto`): one E8 read per
 * address, or the listing by schema and attester (`ceil(total / 100)` pages for every address at
 * once), chosen from the listing's first page; `attestationLookup` in the answer and the
 * `attestation-index` evidence say which.
 *
 * @throws {InvalidAddressError} for a malformed address, before any request.
 * @throws {InvalidParameterError} for a bad parameter, a client on (or declared for) another chain
 *   than `network`, a sandbox network without `allowSandbox`, clean hands without `attestationIndex`
 *   or Sign Protocol.
 * @throws {UnsupportedNetworkError} for a chain without built-in constants and no `network` given.
 * @throws {BlockNotAvailableError} when the node cannot serve state at the block (future block, pruned state).
 * @throws {ChainReadError} when an RPC read fails or the contracts answer something inconsistent; it
 *   names the block and the addresses affected. Never a silent "not verified".
 * @example
 * import { verifyCredentials } from 'personhood'
 * import { createPublicClient, http } from 'viem'
 * import { optimism } from 'viem/chains'
 *
 * const client = createPublicClient({ chain: optimism, transport: http(process.env.OPTIMISM_RPC_URL) })
 * const { results } = await verifyCredentials({
 *   client,
 *   addresses: ['0x52908400098527886E0F7030069857D2E4169EE7'],
 *   credentials: ['gov-id', 'phone'],
 *   blockNumber: 130_000_000n,
 * })
 * results['0x52908400098527886e0f7030069857d2e4169ee7']?.['gov-id'].valid // true or false
 */
export async function verifyCredentials<const credential extends HumanCredential>(
  parameters: VerifyCredentialsParameters<credential>,
): Promise<VerifyCredentialsReturnType<credential>> {
  // Everything the caller controls is checked before the first request.
  if (!Array.isArray(parameters.addresses)) throw new InvalidParameterError({ parameter: 'addresses', reason: 'Expected an array of addresses.' })
  const addresses = [...new Set(parameters.addresses.map((address) => normalizeAddress(address)))]
  const credentials: HumanCredential[] = parseCredentials(parameters.credentials)
  const actionId = parseActionId(parameters.actionId)
  const pinned = parseBlockNumber(parameters.blockNumber)
  const blockNumber = pinned === 'latest' ? undefined : pinned
  const batchSize = parsePositiveInteger(parameters.batchSize ?? defaultMulticallBatchSize, 'batchSize')
  const concurrency = parsePositiveInteger(parameters.concurrency ?? defaultMulticallConcurrency, 'concurrency')
  const { attestationIndex } = parameters
  const wantsCleanHands = credentials.includes('clean-hands')
  if (wantsCleanHands && (typeof attestationIndex !== 'object' || attestationIndex === null || typeof attestationIndex.getAttestations !== 'function')) {
    throw new InvalidParameterError({
      parameter: 'attestationIndex',
      reason: 'clean-hands needs an attestation index ({ getAttestations({ address }) }) to find attestation ids.',
    })
  }
  const attestationLookup = parseAttestationLookup(parameters.attestationLookup, attestationIndex)
  const declared = declaredChainId(parameters.client)
  const client = toPublicClient(parameters.client)
  const requested = parameters.network === undefined ? undefined : getNetwork(parameters.network, parameters.constants)
  if (requested) checkNetwork(requested, parameters.allowSandbox === true, wantsCleanHands)
  if (requested && declared !== undefined) checkChain(requested, declared, 'declared for')

  // Pin the chain and the block: ask the node only for what the client does not declare and the
  // answer needs. 'latest' is pinned to a number (the header); clean hands filters index rows at
  // the block's timestamp (the header); SBTs are judged by getSBT at the block itself.
  const [chainId, header] = await Promise.all([
    declared ?? readChainId(client, { addresses, blockNumber: blockNumber ?? 'latest' }),
    blockNumber === undefined || wantsCleanHands ? readBlockHeader(client, { blockNumber, addresses, chainId: declared }) : undefined,
  ])
  const network = requested ?? getNetwork(chainId, parameters.constants)
  if (declared === undefined) checkChain(network, chainId, 'connected to')
  if (!requested) checkNetwork(network, parameters.allowSandbox === true, wantsCleanHands)
  const at = header?.number ?? (blockNumber as bigint)
  let timestamp = header?.timestamp
  const context = (address: string, call: string): ChainErrorContext => ({ blockNumber: at, chainId, addresses: [address], call })
  const run = (plan: CallPlan) =>
    plan.calls.length === 0
      ? Promise.resolve()
      : multicallAt({ client, multicall3: network.contracts.multicall3, calls: plan.calls, blockNumber: at, batchSize, concurrency, chainId }).then(
          (results) => results.forEach((result, index) => plan.handlers[index]?.(result)),
        )

  // Round 1: getSBT for every address and SBT credential; meanwhile, the index rows for clean hands.
  const hub = network.contracts.hub
  const sbtCredentials = credentials.filter((entry): entry is SbtCredential => entry !== 'clean-hands')
  const pairs: PairState[] = []
  const first = new CallPlan()
  for (const address of addresses) {
    for (const credential of sbtCredentials) {
      const pair: PairState = { address, credential, primary: slot(network, credential) }
      pairs.push(pair)
      first.add(getSbtCall(hub, address, pair.primary.circuitId), (result) => {
        pair.primary.getSBT = decodeGetSbt(result, context(address, `getSBT(${credential}) on ${hub}`))
      })
    }
  }
  const [, indexed] = await Promise.all([
    run(first),
    wantsCleanHands && attestationIndex
      ? findCleanHandsRows({
          index: attestationIndex,
          addresses,
          schemaId: network.cleanHands.fullSchemaId,
          attester: normalizeAddress(network.cleanHands.attester),
          lookup: attestationLookup,
          concurrency,
        })
      : undefined,
  ])
  const rows = indexed?.rows ?? []
  const lookupPath = indexed?.summary.path ?? 'address'

  // Round 2: sbtOwners where getSBT gave no valid SBT, the zk-passport SBT and the permanent stores
  // as fallbacks, and getAttestation for every index row that passes the rule at the block.
  const second = new CallPlan()
  // The first address whose verdict may need the block's timestamp (a getSBT that reverts).
  let needsTimestamp: Address | undefined
  for (const pair of pairs) {
    const { address, primary } = pair
    const verdict = judge(primary, address, actionId, timestamp)
    if (verdict.status === 'classified' && verdict.reason === 'valid') continue
    if (verdict.status === 'needs-owners') {
      needsTimestamp ??= address
      second.add(sbtOwnersCall(hub, address, primary.circuitId), (result) => {
        primary.sbtOwners = decodeSbtOwners(result, context(address, `sbtOwners(${primary.circuit}) on ${hub}`))
      })
    }
    if (pair.credential === 'gov-id') {
      const passport = slot(network, 'zk-passport')
      pair.passport = passport
      needsTimestamp ??= address
      second.add(getSbtCall(hub, address, passport.circuitId), (result) => {
        passport.getSBT = decodeGetSbt(result, context(address, `getSBT(zk-passport) on ${hub}`))
      })
      second.add(sbtOwnersCall(hub, address, passport.circuitId), (result) => {
        passport.sbtOwners = decodeSbtOwners(result, context(address, `sbtOwners(zk-passport) on ${hub}`))
      })
    }
    const store = pair.credential === 'gov-id' ? network.contracts.govIdLegacyStore : pair.credential === 'phone' ? network.contracts.phoneLegacyStore : undefined
    if (store) {
      const legacy: NonNullable<PairState['legacy']> = { contract: store }
      pair.legacy = legacy
      second.add(isUniqueForActionCall(store, address, actionId), (result) => {
        legacy.isUnique = decodeIsUniqueForAction(result, context(address, `isUniqueForAction on ${store}`))
      })
    }
  }
  const cleanHands = new Map<Address, { rows: readonly (CleanHandsRow | MalformedAttestationRow)[]; evidence: AttestationEvidence[] }>()
  if (wantsCleanHands) {
    const signProtocol = network.contracts.signProtocol as Address // checked by checkNetwork
    if (timestamp === undefined) throw new Error('internal: the block header is read for clean hands')
    const blockTimestamp = timestamp
    // Rule 6 on the index rows, judged at the block's timestamp. Not the rows' `revoked` flag: it
    // is the index's as of now; getAttestation at the block tells whether it was revoked then.
    const checkRow = createCleanHandsRowCheck({
      now: blockTimestamp,
      attester: network.cleanHands.attester,
      schemaId: network.cleanHands.fullSchemaId,
      revocation: 'onchain',
    })
    addresses.forEach((address, index) => {
      const addressRows = rows[index] ?? []
      const evidence: AttestationEvidence[] = []
      const confirming = new Map<bigint, AttestationEvidence[]>()
      for (const row of addressRows) {
        let rowReason = checkRow(row)
        const rawId = rowReason === 'malformed' ? undefined : (row as CleanHandsRow).attestationId
        // A row that passes the rule but names no usable attestation id cannot be confirmed: malformed.
        const attestationId = rowReason === 'valid' ? parseAttestationId(rawId) : undefined
        if (rowReason === 'valid' && attestationId === undefined) rowReason = 'malformed'
        const entry: AttestationEvidence = { kind: 'attestation', attestationId: rawId, row, rowReason }
        evidence.push(entry)
        if (rowReason !== 'valid' || attestationId === undefined) continue
        const waiting = confirming.get(attestationId)
        if (waiting) {
          waiting.push(entry)
          continue
        }
        confirming.set(attestationId, [entry])
        second.add(getAttestationCall(signProtocol, attestationId, address), (result) => {
          const attestation = decodeGetAttestation(result, context(address, `getAttestation(${attestationId}) on ${signProtocol}`))
          const recipient = attestation.recipients[0] === undefined ? undefined : decodeRecipient(attestation.recipients[0])
          const reason = checkOnchainCleanHandsAttestation({
            attestation,
            address,
            blockTimestamp,
            schemaId: network.cleanHands.schemaId,
            attester: network.cleanHands.attester,
            decodeRecipient,
          })
          for (const same of confirming.get(attestationId) ?? []) {
            same.onchain = { contract: signProtocol, call: 'getAttestation', attestationId, attestation, recipient, reason }
          }
        })
      }
      cleanHands.set(address, { rows: addressRows, evidence })
    })
  }
  if (timestamp === undefined && needsTimestamp !== undefined) {
    const subject = needsTimestamp
    const multicall3 = network.contracts.multicall3
    second.add(blockTimestampCall(multicall3, subject), (result) => {
      timestamp = decodeBlockTimestamp(result, context(subject, `getCurrentBlockTimestamp() on Multicall3 ${multicall3}`))
    })
  }
  await run(second)

  // Judge.
  const results = Object.fromEntries(addresses.map((address) => [address, {}])) as Record<Address, Record<string, CredentialResult>>
  for (const pair of pairs) {
    const entry = results[pair.address] as Record<string, CredentialResult>
    entry[pair.credential] = judgePair(pair, actionId, timestamp, hub, (details) => chainReadError(context(pair.address, `Hub ${hub}`), details))
  }
  for (const [address, { rows: addressRows, evidence }] of cleanHands) {
    const entry = results[address] as Record<string, CredentialResult>
    entry['clean-hands'] = judgeCleanHands(address, addressRows, evidence, lookupPath)
  }
  // Keep the caller's credential order in each record.
  for (const address of addresses) {
    const entry = results[address] as Record<string, CredentialResult>
    results[address] = Object.fromEntries(credentials.map((credential) => [credential, entry[credential] as CredentialResult]))
  }

  return {
    blockNumber: at,
    ...(header ? { blockHash: header.hash } : {}),
    ...(timestamp === undefined ? {} : { blockTimestamp: timestamp }),
    chainId,
    network: network.name,
    sandbox: network.sandbox,
    actionId,
    results: results as Record<Address, Record<credential, CredentialResult>>,
    ...(indexed ? { attestationLookup: indexed.summary } : {}),
  }
}

function slot(network: NetworkConstants, circuit: SbtCredential | 'zk-passport'): SbtSlot {
  return { circuit, circuitId: network.circuitIds[circuit], issuer: network.issuers[circuit] }
}

function judge(sbt: SbtSlot, subject: Address, actionId: bigint, blockTimestamp: bigint | undefined): SbtClassification {
  if (!sbt.getSBT) throw new Error('internal: getSBT was not read')
  return classifySbt({ getSBT: sbt.getSBT, sbtOwners: sbt.sbtOwners, blockTimestamp, actionId, issuer: sbt.issuer, recipient: BigInt(subject) })
}

/** Final verdict on one SBT slot after both rounds; an inconsistency is an error, never a guess. */
function finalVerdict(sbt: SbtSlot, subject: Address, actionId: bigint, blockTimestamp: bigint | undefined, fail: (details: string) => ChainReadError) {
  const verdict = judge(sbt, subject, actionId, blockTimestamp)
  if (verdict.status === 'classified') return verdict
  if (verdict.status === 'inconsistent') throw fail(`${sbt.circuit} SBT: ${verdict.details}`)
  throw new Error(`internal: ${sbt.circuit} SBT: ${verdict.status === 'needs-owners' ? 'sbtOwners' : 'the block timestamp'} was not read`)
}

function sbtEvidence(pair: PairState, sbt: SbtSlot, hub: Address, actionId: bigint, reason: SbtReason): SbtEvidence {
  return {
    kind: 'sbt',
    circuit: sbt.circuit,
    contract: hub,
    subject: pair.address,
    circuitId: sbt.circuitId,
    getSBT: sbt.getSBT as GetSbtResult,
    ...(sbt.sbtOwners ? { sbtId: sbtId(pair.address, sbt.circuitId), sbtOwners: sbt.sbtOwners } : {}),
    expected: { actionId, issuer: sbt.issuer },
    reason,
  }
}

function judgePair(
  pair: PairState,
  actionId: bigint,
  blockTimestamp: bigint | undefined,
  hub: Address,
  fail: (details: string) => ChainReadError,
): CredentialResult {
  const primary = finalVerdict(pair.primary, pair.address, actionId, blockTimestamp, fail)
  const evidence: CredentialEvidence[] = [sbtEvidence(pair, pair.primary, hub, actionId, primary.reason)]
  const reads: JudgeHumanIdCredentialParameters = { primary }
  // The fallbacks were read (round 2) only when the primary SBT is not valid.
  if (primary.reason !== 'valid' && pair.passport) {
    reads.passport = finalVerdict(pair.passport, pair.address, actionId, blockTimestamp, fail)
    evidence.push(sbtEvidence(pair, pair.passport, hub, actionId, reads.passport.reason))
  }
  if (primary.reason !== 'valid' && reads.passport?.reason !== 'valid' && pair.legacy) {
    if (pair.legacy.isUnique === undefined) throw fail(`isUniqueForAction on ${pair.legacy.contract} was not read.`)
    evidence.push({ kind: 'legacy-store', contract: pair.legacy.contract, call: 'isUniqueForAction', user: pair.address, actionId, isUnique: pair.legacy.isUnique })
    reads.legacy = pair.legacy.isUnique
  }
  return { ...judgeHumanIdCredential(reads), evidence }
}

// How far a row got: later checks rank higher (the index rule's own ranking); on-chain checks rank
// above the index row's.
const rowRank = cleanHandsRowRank
const onchainRank: Record<OnchainCleanHandsReason, number> = {
  none: 7,
  'wrong-schema': 8,
  'wrong-attester': 9,
  revoked: 10,
  expired: 11,
  'wrong-recipient': 12,
  valid: 13,
}

function judgeCleanHands(
  address: Address,
  rows: readonly (CleanHandsRow | MalformedAttestationRow)[],
  attestations: AttestationEvidence[],
  lookup: AttestationIndexEvidence['lookup'],
): CredentialResult {
  const evidence: CredentialEvidence[] = [{ kind: 'attestation-index', address, rowCount: rows.length, lookup }, ...attestations]
  let best: { rank: number; reason: CredentialReason } = { rank: -1, reason: 'none' }
  let expiresAt: bigint | undefined
  for (const entry of attestations) {
    if (entry.rowReason === 'valid' && !entry.onchain) throw new Error('internal: attestation was not confirmed on-chain')
    const rank = entry.onchain ? onchainRank[entry.onchain.reason] : rowRank[entry.rowReason]
    const reason = entry.onchain ? entry.onchain.reason : entry.rowReason
    if (reason === 'valid' && entry.onchain) {
      const validUntil = entry.onchain.attestation.validUntil
      if (expiresAt === undefined || validUntil > expiresAt) expiresAt = validUntil
    }
    if (rank > best.rank) best = { rank, reason }
  }
  if (best.reason === 'valid') return { valid: true, reason: 'valid', expiresAt, evidence }
  return { valid: false, reason: best.reason, evidence }
}

function checkChain(network: NetworkConstants, chainId: number, how: 'connected to' | 'declared for'): void {
  if (network.chainId === chainId) return
  throw new InvalidParameterError({
    parameter: 'network',
    reason: `The client is ${how} chain ${chainId}, but the network "${network.name}" is chain ${network.chainId}. Reading another chain's contracts would give wrong answers.`,
  })
}

function checkNetwork(network: NetworkConstants, allowSandbox: boolean, wantsCleanHands: boolean): void {
  if (network.sandbox && !allowSandbox) {
    throw new InvalidParameterError({
      parameter: 'allowSandbox',
      reason: `${network.name} (chain ${network.chainId}) is a sandbox where anyone can mint SBTs; its results never count for production. Pass allowSandbox: true to read it anyway (results are marked sandbox: true).`,
    })
  }
  if (wantsCleanHands && !network.contracts.signProtocol) {
    throw new InvalidParameterError({
      parameter: 'credentials',
      reason: `clean-hands is confirmed on Sign Protocol, which has no address on ${network.name} (chain ${network.chainId}); clean-hands attestations live on Optimism. Pass constants.contracts.signProtocol to use another registry.`,
    })
  }
}

function parseCredentials<credential extends HumanCredential>(value: readonly credential[]): credential[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new InvalidParameterError({ parameter: 'credentials', reason: `Expected a non-empty array of ${humanCredentials.join(', ')}.` })
  }
  for (const entry of value) {
    if (!(humanCredentials as readonly string[]).includes(entry)) {
      throw new InvalidParameterError({ parameter: 'credentials', reason: `"${String(entry)}" is not one of ${humanCredentials.join(', ')}.` })
    }
  }
  return [...new Set(value)]
}

/** An attestation id as a uint64 (hex or decimal), or undefined when it is not one. */
function parseAttestationId(value: unknown): bigint | undefined {
  const text = typeof value === 'string' ? value.trim() : ''
  const parsed = /^0x[0-9a-fA-F]{1,16}$/.test(text) ? BigInt(text) : /^[0-9]{1,20}$/.test(text) ? BigInt(text) : undefined
  return parsed === undefined || parsed >= 2n ** 64n ? undefined : parsed
}
