/**
 * The Human ID verdicts of many addresses at one block through the deployless reader
 * (strategies/human-id/reader.sol): one `eth_call` with no `to` per chunk of addresses, whose data
 * is the reader's creation code and arguments. Its constructor reads every SBT, fallback, permanent
 * store and clean-hands attestation inside the EVM and returns packed comparisons and the block's
 * number, time and chain id; the rules judge them. The reader's protocol is written once, in
 * src/rules/reader.ts, which the score-api folder carries verbatim: both forms send the same calls.
 */
import { encodeAbiParameters, parseAbiParameters, zeroAddress, type Address, type Hex } from 'viem'
import { call } from 'viem/actions'
import type { HumanCredential, HumanIdIssuerCircuit, NetworkConstants } from '../chain/constants.js'
import { toPublicClient, type ChainClient } from '../chain/provider.js'
import { chainReadError, collectErrorMessages, toChainReadError, type ChainErrorContext } from '../chain/rpc.js'
import type { MalformedAttestationRow } from '../schemas/attestation.js'
import { createCleanHandsRowCheck, type CleanHandsRow } from './clean-hands.js'
import { checkChain, checkNetwork } from './credentials/parse.js'
import { attestationsToConfirm } from '../rules/clean-hands-index.js'
import { judgeReaderCleanHands } from '../rules/reader-clean-hands.js'
import { judgeReaderCredential } from '../rules/reader-verdicts.js'
import type { CredentialReason } from './credentials/types.js'
import {
  halveReaderChunk,
  joinReaderHalves,
  planReaderChunk,
  planReaderChunks,
  readerArgs,
  readerBlock,
  readerCode,
  readerLimits,
  readerValues,
  readerVoters,
  type ReaderAsk,
  type ReaderChunk,
  type ReaderLayout,
  type ReaderSbt,
  type ReaderVoter,
} from '../rules/reader.js'
import type * as cleanHandsRules from '../rules/clean-hands.js'
import type * as sbtRules from '../rules/sbt.js'
import { toVerdictExpiry, type ChainVerdictEvidence, type HumanIdVerdict, type ReaderAttestationEvidence, type ReaderEvidence } from './verdict.js'

/** The block the reader ran at, as it returned it. */
export type ReaderBlock = { number: bigint; timestamp: bigint; chainId: number }

/** Parameters of {@link readReaderVerdicts}. */
export type ReadReaderVerdictsParameters = {
  /** A client of the hub chain: a viem client, an ethers provider or an EIP-1193 provider. */
  client: ChainClient
  /** The hub chain's constants (Optimism, or the Base Sepolia sandbox). */
  network: NetworkConstants
  /** Distinct, EIP-55. */
  addresses: readonly Address[]
  credentials: readonly HumanCredential[]
  actionId: bigint
  /**
   * Read each SBT's expiry and each attestation's validUntil too (the verdicts' `expiresAt`): 6 bytes
   * more each in the answer, about 1,500 gas. Default false: `expiresAt` is then null.
   */
  expiries?: boolean | undefined
  /** The block to read at; 'latest' is pinned by the first call, and every other call reads that block. */
  blockNumber: bigint | 'latest'
  /** With `clean-hands`: each address's index rows (in the order of `addresses`), and how the index was read. */
  cleanHands?: { rows: readonly (readonly (CleanHandsRow | MalformedAttestationRow)[])[]; lookup: 'address' | 'listing' } | undefined
  /**
   * Hears the first call's block (or why it failed) before any other call goes out; answers another
   * block to read everything at instead, or undefined to keep it (a failure is then thrown). For a
   * block chosen by a clock: the caller checks it there.
   */
  check?: ((first: { block: ReaderBlock } | { error: unknown }) => Promise<bigint | undefined>) | undefined
}

/** What {@link readReaderVerdicts} returns: the block, and each address's verdicts in the credentials' order. */
export type ReadReaderVerdictsReturnType = { block: ReaderBlock; verdicts: Map<Address, HumanIdVerdict[]> }

/**
 * Reads and judges the credentials of `addresses` at one block through the deployless reader (with
 * `expiries`, each SBT's expiry and each attestation's validUntil too). Requests: one
 * `eth_call` per chunk (src/rules/reader.ts plans them under a node's limits on gas and
 * bytes; 500 addresses with the three SBT credentials fit one), at most three at once; a chunk that
 * runs out of gas is read again once in two halves. The chain id comes back from the reader, so no
 * `eth_chainId` and no header is read.
 *
 * @throws {InvalidParameterError} when the client is on another chain than `network`.
 * @throws {BlockNotAvailableError} when the node cannot serve state at the block.
 * @throws {ChainReadError} when a call fails or answers something the reader cannot have returned; it
 *   names the block and the addresses of the chunk.
 */
export async function readReaderVerdicts(parameters: ReadReaderVerdictsParameters): Promise<ReadReaderVerdictsReturnType> {
  const { network, addresses, credentials, actionId } = parameters
  const wantsCleanHands = credentials.includes('clean-hands')
  checkNetwork(network, true, wantsCleanHands)
  const client = toPublicClient(parameters.client)
  const expiries = parameters.expiries === true
  const layout: ReaderLayout = { credentials, expiries }
  const ask = readerAsk(network, credentials, actionId)
  const rows = parameters.cleanHands?.rows ?? []
  const position = new Map(addresses.map((address, index) => [address, index]))
  // The rows worth confirming on chain (see confirmable); the rule is judged again at the block's
  // time once the reader has returned it.
  const candidates = (address: string) => (wantsCleanHands ? confirmable(network, rows[position.get(address as Address)!] ?? []) : [])
  const chunks = planReaderChunks(layout, addresses, candidates)

  const read = async (chunk: ReaderChunk, blockNumber: bigint | 'latest', which: string): Promise<Hex> => {
    const context: ChainErrorContext = {
      blockNumber,
      addresses: chunk.voters,
      chainId: network.chainId,
      call: `the Human ID reader (an eth_call with no to), call ${which}: ${chunk.voters.length} addresses, ${chunk.pairs.length} attestations, planned ${chunk.gas} gas, ${chunk.input} bytes sent, ${chunk.bytes} returned`,
    }
    const args = encodeAbiParameters(parseAbiParameters(readerArgs.join(', ')), readerValues(layout, ask, chunk) as never)
    let data: Hex | undefined
    try {
      ;({ data } = await call(client, { data: `${readerCode}${args.slice(2)}` as Hex, ...(blockNumber === 'latest' ? { blockTag: 'latest' } : { blockNumber }) }))
    } catch (error) {
      throw Object.assign(toChainReadError(error, context), { outOfGas: collectErrorMessages(error).some((message) => /gas/i.test(message)) })
    }
    const answer = data ?? '0x'
    if (answer.length !== 2 + 2 * chunk.bytes) {
      // A node may answer a creation that ran out of gas with nothing.
      const details = `The reader answered ${(answer.length - 2) / 2} bytes, not ${chunk.bytes}.`
      throw Object.assign(chainReadError(context, details), { outOfGas: answer === '0x' })
    }
    return answer
  }
  const readChunk = async (chunk: ReaderChunk, blockNumber: bigint | 'latest'): Promise<Hex> => {
    const which = `${chunks.indexOf(chunk) + 1} of ${chunks.length}`
    try {
      return await read(chunk, blockNumber, which)
    } catch (error) {
      if (!(error as { outOfGas?: boolean }).outOfGas || chunk.voters.length < 2) throw error
    }
    const [a, b] = halveReaderChunk(layout, chunk)
    const first = await read(a, blockNumber, `${which}, first half`)
    const second = await read(b, blockNumber === 'latest' ? BigInt(readerBlock(first).number) : blockNumber, `${which}, second half`)
    return joinReaderHalves(layout, [a, b], [first, second]) as Hex
  }

  let blockNumber = parameters.blockNumber
  let first: Hex
  try {
    first = await readChunk(chunks[0]!, blockNumber)
  } catch (error) {
    const instead = await parameters.check?.({ error })
    if (instead === undefined) throw error
    blockNumber = instead
    first = await readChunk(chunks[0]!, blockNumber)
  }
  let block = blockOf(first)
  checkChain(network, block.chainId, 'connected to')
  const instead = parameters.blockNumber === blockNumber ? await parameters.check?.({ block }) : undefined
  if (instead !== undefined) {
    first = await readChunk(chunks[0]!, instead)
    block = blockOf(first)
  }
  const answers = [first]
  for (let index = 1; index < chunks.length; index += readerLimits.parallel) {
    const group = chunks.slice(index, index + readerLimits.parallel)
    answers.push(...(await Promise.all(group.map((chunk) => readChunk(chunk, block.number)))))
  }

  const evidence: Omit<ChainVerdictEvidence, 'reads'> = {
    kind: 'chain',
    chainId: block.chainId,
    network: network.name,
    sandbox: network.sandbox,
    blockNumber: block.number,
    blockTimestamp: block.timestamp,
    actionId,
  }
  const judge = { network, actionId, block, evidence, expiries, checkRow: rowCheck(network, block.timestamp) }
  const verdicts = new Map<Address, HumanIdVerdict[]>()
  chunks.forEach((chunk, index) => {
    for (const read of readerVoters(layout, chunk, answers[index]!)) {
      const address = read.voter as Address
      verdicts.set(
        address,
        credentials.map((credential) =>
          credential === 'clean-hands' ? judgeCleanHands(judge, read, rows[position.get(address)!] ?? [], parameters.cleanHands?.lookup ?? 'address') : judgeSbtCredential(judge, read, credential),
        ),
      )
    }
  })
  return { block, verdicts }
}

/** The reader's arguments besides the voters, from the hub chain's constants. */
function readerAsk(network: NetworkConstants, credentials: readonly HumanCredential[], actionId: bigint): ReaderAsk {
  const { contracts, circuitIds, issuers, cleanHands } = network
  const stores: Partial<Record<HumanCredential, Address | undefined>> = { 'gov-id': contracts.govIdLegacyStore, phone: contracts.phoneLegacyStore }
  return {
    hub: contracts.hub,
    actionId,
    circuits: credentials
      .filter((credential) => credential !== 'clean-hands')
      .map((credential) => ({ credential, circuitId: circuitIds[credential], issuer: issuers[credential], store: (!network.sandbox && stores[credential]) || zeroAddress })),
    passport: { circuitId: circuitIds['zk-passport'], issuer: issuers['zk-passport'] },
    signProtocol: contracts.signProtocol ?? zeroAddress,
    schemaId: cleanHands.schemaId,
    attester: cleanHands.attester,
  }
}

function blockOf(answer: Hex): ReaderBlock {
  const { number, timestamp, chainId } = readerBlock(answer)
  return { number: BigInt(number), timestamp: BigInt(timestamp), chainId }
}

type RowCheck = (row: CleanHandsRow | MalformedAttestationRow) => cleanHandsRules.CleanHandsRowReason

/** The index rule on a row at `now`, without the row's `revoked` flag: revocation is judged on chain at the block. */
function rowCheck(network: NetworkConstants, now: bigint): RowCheck {
  return createCleanHandsRowCheck({ now, attester: network.cleanHands.attester, schemaId: network.cleanHands.fullSchemaId, revocation: 'onchain' })
}

/**
 * The attestation ids of the rows worth confirming, before the block's time is known: those that
 * pass the index rule at time 0 (every row that passes it at the block's time does).
 */
function confirmable(network: NetworkConstants, rows: readonly (CleanHandsRow | MalformedAttestationRow)[]): bigint[] {
  return attestationsToConfirm(rows, rowCheck(network, 0n))
}

type Judge = {
  network: NetworkConstants
  actionId: bigint
  block: ReaderBlock
  evidence: Omit<ChainVerdictEvidence, 'reads'>
  /** Whether the reader returned expiries: else a valid verdict's expiry is not known. */
  expiries: boolean
  checkRow: RowCheck
}

function verdictOf(judge: Judge, address: Address, credential: HumanCredential, judged: { valid: boolean; reason: CredentialReason; expiresAt?: bigint | undefined }, reads: ReaderEvidence[]): HumanIdVerdict {
  return {
    address,
    credential,
    source: 'chain',
    valid: judged.valid,
    reason: judged.reason,
    expiresAt: judged.valid && judge.expiries ? toVerdictExpiry(judged.expiresAt) : null,
    evidence: { ...judge.evidence, reads },
  }
}

function errorContext(judge: Judge, address: Address): ChainErrorContext {
  return { blockNumber: judge.block.number, addresses: [address], chainId: judge.block.chainId, call: `the Human ID reader at ${judge.network.contracts.hub}` }
}

/** The reader's evidence of one SBT record, as the rule classified it. */
function sbtEvidence(judge: Judge, address: Address, circuit: HumanIdIssuerCircuit, sbt: ReaderSbt, verdict: sbtRules.SbtVerdict): ReaderEvidence {
  const { flags } = sbt
  return {
    kind: 'reader-sbt',
    circuit,
    contract: judge.network.contracts.hub,
    subject: address,
    circuitId: judge.network.circuitIds[circuit],
    call: flags & 2 ? 'getSBT' : 'sbtOwners',
    revoked: (flags & 4) !== 0,
    ...(sbt.expiry === undefined ? {} : { expiry: sbt.expiry }),
    ...(flags & 2 && flags & 16 ? { publicValues: { issuer: (flags & 32) !== 0, actionId: (flags & 64) !== 0, subject: (flags & 128) !== 0 } } : {}),
    expected: { actionId: judge.actionId, issuer: judge.network.issuers[circuit] },
    reason: verdict.reason,
  }
}

/** gov-id, phone or biometrics, judged by the rule (src/rules/reader-verdicts.ts), with the evidence of each step it took. */
function judgeSbtCredential(judge: Judge, read: ReaderVoter, credential: Exclude<HumanCredential, 'clean-hands'>): HumanIdVerdict {
  const address = read.voter as Address
  const records = read.credentials[credential]
  if (!records) throw new Error(`internal: the reader's answer has no ${credential} record`)
  const { network, actionId, block } = judge
  const store = credential === 'gov-id' ? network.contracts.govIdLegacyStore : credential === 'phone' ? network.contracts.phoneLegacyStore : undefined
  const judged = judgeReaderCredential({ records, credential, at: block.timestamp, voter: address, actionId, issuers: network.issuers, store: !network.sandbox && store })
  if ('problem' in judged) throw chainReadError(errorContext(judge, address), judged.problem)
  const reads = [sbtEvidence(judge, address, credential, records.primary, judged.primary)]
  if (judged.passport) reads.push(sbtEvidence(judge, address, 'zk-passport', records.passport!, judged.passport))
  if (judged.legacy !== undefined) reads.push({ kind: 'legacy-store', contract: store!, call: 'isUniqueForAction', user: address, actionId, isUnique: judged.legacy })
  return verdictOf(judge, address, credential, judged.verdict, reads)
}

/** Clean hands, judged by the rule (src/rules/reader-clean-hands.ts), with each row and attestation it read as evidence. */
function judgeCleanHands(judge: Judge, read: ReaderVoter, rows: readonly (CleanHandsRow | MalformedAttestationRow)[], lookup: 'address' | 'listing'): HumanIdVerdict {
  const address = read.voter as Address
  const { cleanHands, contracts } = judge.network
  const expected = { schemaId: cleanHands.schemaId, attester: cleanHands.attester }
  const judged = judgeReaderCleanHands({ rows, checkRow: judge.checkRow, attestations: read.attestations, at: judge.block.timestamp, voter: address, expected })
  if ('problem' in judged) throw chainReadError(errorContext(judge, address), judged.problem)
  const reads: ReaderEvidence[] = [{ kind: 'attestation-index', address, rowCount: rows.length, lookup }]
  judged.checks.forEach((check, index) => {
    const row = rows[index]!
    const attestationId = check.checked === 'malformed' ? undefined : (row as CleanHandsRow).attestationId
    const entry: ReaderAttestationEvidence = { kind: 'reader-attestation', attestationId, row, rowReason: check.row }
    reads.push(entry)
    if (check.attestationId === undefined || check.onchain === undefined) return
    const { flags, validUntil } = read.attestations.get(check.attestationId)!
    entry.onchain = {
      contract: contracts.signProtocol ?? zeroAddress,
      call: 'getAttestation',
      attestationId: check.attestationId,
      exists: (flags & 1) !== 0,
      schemaId: (flags & 2) !== 0,
      attester: (flags & 4) !== 0,
      revoked: (flags & 8) !== 0,
      ...(validUntil === undefined ? {} : { validUntil }),
      recipient: (flags & 32) !== 0,
      ...(flags & 128 ? { reverted: true as const } : {}),
      reason: check.onchain,
    }
  })
  return verdictOf(judge, address, 'clean-hands', judged, reads)
}

/** Voters one reader call holds within its limits (src/rules/reader.ts's plan) when none has an attestation to read. */
export function readerVotersPerCall(layout: ReaderLayout): number {
  const fits = (voters: number) => {
    const next = planReaderChunk(layout, Array.from({ length: voters }, () => ''), [])
    return next.gas <= readerLimits.gas && next.input <= readerLimits.input && next.bytes <= readerLimits.bytes
  }
  let low = 1
  let high = 65536
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (fits(middle)) low = middle
    else high = middle - 1
  }
  return low
}
