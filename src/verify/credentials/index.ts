/**
 * `verifyCredentials`: which addresses hold a valid Human ID credential (gov-id, phone, biometrics)
 * or clean-hands attestation at one block, read from the chain in a few multicall requests.
 */
import type { Address } from 'viem'
import { getNetwork, type HumanCredential } from '../../chain/constants.js'
import { decodeGetSbt, decodeSbtOwners, getSbtCall, sbtOwnersCall } from '../../chain/hub.js'
import { decodeIsUniqueForAction, isUniqueForActionCall } from '../../chain/legacy.js'
import { blockTimestampCall, decodeBlockTimestamp, defaultMulticallBatchSize, defaultMulticallConcurrency, multicallAt } from '../../chain/multicall.js'
import { declaredChainId, toPublicClient, type ChainClient } from '../../chain/provider.js'
import { chainReadError, readBlockHeader, readChainId, type ChainErrorContext } from '../../chain/rpc.js'
import { decodeGetAttestation, decodeRecipient, getAttestationCall } from '../../chain/sign-protocol.js'
import { InvalidParameterError } from '../../errors/index.js'
import { normalizeAddress } from '../../utils/address.js'
import { defaultActionId, parseActionId, parseBlockNumber, parsePositiveInteger } from '../../utils/parse.js'
import { findCleanHandsRows, parseAttestationLookup } from '../attestation-lookup.js'
import { checkOnchainCleanHandsAttestation, createCleanHandsRowCheck, type CleanHandsRow } from '../clean-hands.js'
import type { MalformedAttestationRow } from '../../schemas/attestation.js'
import type { AttestationEvidence, CredentialResult, PairState, SbtCredential, VerifyCredentialsParameters, VerifyCredentialsReturnType } from './types.js'
import { CallPlan } from './plan.js'
import { judgeCleanHands, judgePair, slot, judge } from './judge.js'
import { checkChain, checkNetwork, parseCredentials } from './parse.js'
import { indexRowCandidate } from '../../rules/clean-hands-index.js'

export type {
  AttestationEvidence,
  AttestationIndexEvidence,
  CredentialEvidence,
  CredentialReason,
  CredentialResult,
  LegacyStoreEvidence,
  SbtEvidence,
  VerifyCredentialsErrorType,
  VerifyCredentialsParameters,
  VerifyCredentialsReturnType,
} from './types.js'
export type { AttestationIndex, AttestationLookup, AttestationLookupSummary } from '../attestation-lookup.js'

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
 * const { results } = await verifyCredentials(client, {
 *   addresses: ['0x52908400098527886E0F7030069857D2E4169EE7'],
 *   credentials: ['gov-id', 'phone'],
 *   blockNumber: 130_000_000n,
 * })
 * results['0x52908400098527886e0f7030069857d2e4169ee7']?.['gov-id'].valid // true or false
 */
export async function verifyCredentials<const credential extends HumanCredential>(
  chainClient: ChainClient,
  {
    addresses: givenAddresses,
    credentials: givenCredentials,
    actionId: givenActionId = defaultActionId,
    blockNumber: givenBlockNumber = 'latest',
    network: givenNetwork,
    constants,
    allowSandbox = false,
    attestationIndex,
    attestationLookup: givenLookup = 'auto',
    batchSize: givenBatchSize = defaultMulticallBatchSize,
    concurrency: givenConcurrency = defaultMulticallConcurrency,
  }: VerifyCredentialsParameters<credential>,
): Promise<VerifyCredentialsReturnType<credential>> {
  // Everything the caller controls is checked before the first request.
  if (!Array.isArray(givenAddresses)) throw new InvalidParameterError({ parameter: 'addresses', reason: 'Expected an array of addresses.' })
  const addresses = [...new Set(givenAddresses.map((address) => normalizeAddress(address)))]
  const credentials: HumanCredential[] = parseCredentials(givenCredentials)
  const actionId = parseActionId(givenActionId)
  const pinned = parseBlockNumber(givenBlockNumber)
  const blockNumber = pinned === 'latest' ? undefined : pinned
  const batchSize = parsePositiveInteger(givenBatchSize, 'batchSize')
  const concurrency = parsePositiveInteger(givenConcurrency, 'concurrency')
  const wantsCleanHands = credentials.includes('clean-hands')
  if (wantsCleanHands && (typeof attestationIndex !== 'object' || attestationIndex === null || typeof attestationIndex.getAttestations !== 'function')) {
    throw new InvalidParameterError({
      parameter: 'attestationIndex',
      reason: 'clean-hands needs an attestation index ({ getAttestations({ address }) }) to find attestation ids.',
    })
  }
  const attestationLookup = parseAttestationLookup(givenLookup, attestationIndex)
  const declared = declaredChainId(chainClient)
  const client = toPublicClient(chainClient)
  const requested = givenNetwork === undefined ? undefined : getNetwork(givenNetwork, constants)
  if (requested) checkNetwork(requested, allowSandbox === true, wantsCleanHands)
  if (requested && declared !== undefined) checkChain(requested, declared, 'declared for')

  // Pin the chain and the block: ask the node only for what the client does not declare and the
  // answer needs. 'latest' is pinned to a number (the header); clean hands filters index rows at
  // the block's timestamp (the header); SBTs are judged by getSBT at the block itself.
  const [chainId, header] = await Promise.all([
    declared ?? readChainId(client, { addresses, blockNumber: blockNumber ?? 'latest' }),
    blockNumber === undefined || wantsCleanHands ? readBlockHeader(client, { blockNumber, addresses, chainId: declared }) : undefined,
  ])
  const network = requested ?? getNetwork(chainId, constants)
  if (declared === undefined) checkChain(network, chainId, 'connected to')
  if (!requested) checkNetwork(network, allowSandbox === true, wantsCleanHands)
  const at = header?.number ?? (blockNumber as bigint)
  let timestamp = header?.timestamp
  const context = (address: string, call: string): ChainErrorContext => ({ blockNumber: at, chainId, addresses: [address], call })
  const run = (plan: CallPlan) =>
    plan.calls.length === 0
      ? Promise.resolve()
      : multicallAt(client, { multicall3: network.contracts.multicall3, calls: plan.calls, blockNumber: at, batchSize, concurrency, chainId }).then(
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
        const checked = checkRow(row)
        const rawId = checked === 'malformed' ? undefined : (row as CleanHandsRow).attestationId
        // A row that passes the rule but names no usable attestation id cannot be confirmed: malformed.
        const { reason: rowReason, attestationId } = indexRowCandidate(checked, rawId)
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
