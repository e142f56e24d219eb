/**
 * Clean hands in bulk: the verifier reads the attestation index one address at a time (E8) or
 * through the listing by schema and attester, whichever takes fewer requests, and confirms every
 * candidate on the in-process EVM either way. The index is the reference server's, over the same
 * rows the chain holds; request counts come from the fetch the client is given.
 */
import type { Address } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { createAttestationIndexClient, type AttestationIndexClient } from '../../src/clients/attestation-index/index.js'
import { InvalidParameterError } from '../../src/errors/index.js'
import { createAttestationIndexApp } from '../../src/server/routes/attestation-index.js'
import { verifyCredentials, type AttestationLookup } from '../../src/verify/credentials/index.js'
import type { AttestationRow } from '../../src/world/types.js'
import { failure } from '../helpers/async.js'
import { TestChain } from './harness.js'
import { attesterLower, freshAddress, instrument } from './helpers.js'

const day = 86_400n
let chain: TestChain
/** Index rows, as the reference server stores them (one per address page). */
const rows: AttestationRow[] = []
/** The voters, each with the verdict its attestations should give. */
const voters: { address: Address; expected: string }[] = []
let snapshot: bigint
let revokedAfter: bigint

function indexRow(attestationId: bigint, address: Address, validUntil: bigint, fields: Partial<AttestationRow> = {}): AttestationRow {
  return {
    attestationId: `0x${attestationId.toString(16)}`,
    address,
    fullSchemaId: 'onchain_evm_10_0x8',
    schemaId: '0x8',
    attester: attesterLower,
    isReceiver: true,
    revoked: false,
    validUntil: validUntil.toString(),
    attestTimestamp: 1_740_000_000_000 + Number(attestationId),
    recipients: [address],
    kind: 'valid',
    ...fields,
  }
}

beforeAll(async () => {
  chain = await TestChain.start()
  const { timestamp } = await chain.latest()
  let id = 0x5000n
  const attest = async (address: Address, expected: string, options: { validUntil?: bigint; onchain?: boolean; row?: Partial<AttestationRow> } = {}) => {
    const attestationId = id++
    const validUntil = options.validUntil ?? timestamp + 30n * day
    if (options.onchain !== false) await chain.attest({ attestationId, recipient: address, validUntil })
    rows.push(indexRow(attestationId, address, validUntil, options.row))
    voters.push({ address, expected })
    return attestationId
  }
  for (let i = 0; i < 12; i++) await attest(freshAddress(), 'valid')
  await attest(freshAddress(), 'expired', { validUntil: timestamp + 10n })
  await attest(freshAddress(), 'none', { onchain: false })
  const revokedBefore = await attest(freshAddress(), 'revoked')
  await chain.revokeAttestation(revokedBefore)
  const later = await attest(freshAddress(), 'valid')
  // A row that names the voter but was made for someone else: its on-chain recipient differs.
  const impostor = freshAddress()
  rows.push(indexRow(id, impostor, timestamp + 30n * day))
  await chain.attest({ attestationId: id++, recipient: freshAddress(), validUntil: timestamp + 30n * day })
  voters.push({ address: impostor, expected: 'wrong-recipient' })
  // A garbled row (revoked is not a boolean): kept and judged malformed on either path.
  await attest(freshAddress(), 'malformed', { row: { revoked: 'no' as unknown as boolean } })
  // Voters with nothing at all.
  for (let i = 0; i < 4; i++) voters.push({ address: freshAddress(), expected: 'none' })
  snapshot = (await chain.mine(timestamp + 100n)).blockNumber
  // After the snapshot: one valid attestation is revoked (the index's flag says so too).
  revokedAfter = (await chain.revokeAttestation(later)).blockNumber
  const laterRow = rows.find((row) => row.attestationId === `0x${later.toString(16)}`) as AttestationRow
  laterRow.revoked = true
  // Attestations of people who are not voters: 478 in all, so the listing is 5 pages long.
  for (let i = 0; i < 460; i++) rows.push(indexRow(id++, freshAddress(), timestamp + 30n * day))
})

/** An index client over the reference server's index app, counting requests by route. */
function countingIndex(): AttestationIndexClient & { requests: { listing: number; address: number } } {
  const app = createAttestationIndexApp({ attestations: () => rows })
  const requests = { listing: 0, address: 0 }
  const client = createAttestationIndexClient({
    baseUrl: 'http://index.local',
    retry: false,
    fetch: async (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input))
      if (url.pathname === '/api/index/attestations') requests.listing++
      else requests.address++
      return app.fetch(new Request(input, init))
    },
  })
  return Object.assign(client, { requests })
}

async function verify(addresses: readonly Address[], attestationLookup: AttestationLookup, blockNumber = snapshot) {
  const index = countingIndex()
  const node = instrument(chain.provider)
  const response = await verifyCredentials(node, {
    network: 10,
    addresses,
    credentials: ['clean-hands'],
    blockNumber,
    attestationIndex: index,
    attestationLookup,
  })
  const verdicts = Object.fromEntries(Object.entries(response.results).map(([address, entry]) => [address, entry['clean-hands'].reason]))
  const lookups = new Set(Object.values(response.results).map((entry) => entry['clean-hands'].evidence.find((item) => item.kind === 'attestation-index')?.lookup))
  return { response, verdicts, lookups, index: index.requests, rpc: node.methods }
}

describe('clean hands: per-address reads or the listing', () => {
  it('both paths give the same verdict for every voter, and the expected one', async () => {
    const addresses = voters.map((voter) => voter.address)
    const byAddress = await verify(addresses, 'address')
    const byListing = await verify(addresses, 'listing')
    expect(byListing.verdicts).toEqual(byAddress.verdicts)
    expect(byAddress.verdicts).toEqual(Object.fromEntries(voters.map((voter) => [voter.address, voter.expected])))
    expect(byAddress.lookups).toEqual(new Set(['address']))
    expect(byListing.lookups).toEqual(new Set(['listing']))
    // The same on-chain confirmations either way: one header and the same getAttestation calls.
    expect(byListing.rpc).toEqual(byAddress.rpc)
  })

  it('request counts: one E8 read per voter, or five listing pages for all of them', async () => {
    const addresses = voters.map((voter) => voter.address)
    const byAddress = await verify(addresses, 'address')
    expect(byAddress.index).toEqual({ listing: 0, address: addresses.length })
    expect(byAddress.response.attestationLookup).toEqual({ path: 'address', addresses: addresses.length })
    const byListing = await verify(addresses, 'listing')
    expect(rows).toHaveLength(478)
    expect(byListing.index).toEqual({ listing: 5, address: 0 })
    expect(byListing.response.attestationLookup).toEqual({ path: 'listing', pages: 5, total: 478 })
  })

  it('auto takes the listing when its pages are no more than the voters, else reads per voter after the first page', async () => {
    const addresses = voters.map((voter) => voter.address)
    const many = await verify(addresses, 'auto')
    expect(many.index).toEqual({ listing: 5, address: 0 })
    expect(many.lookups).toEqual(new Set(['listing']))
    // Four voters: the 4 pages left of the listing cost no more than 4 E8 reads.
    expect((await verify(addresses.slice(0, 4), 'auto')).index).toEqual({ listing: 5, address: 0 })
    // Three voters: after the first page (which tells the total), 3 E8 reads beat 4 more pages.
    const three = await verify(addresses.slice(0, 3), 'auto')
    expect(three.index).toEqual({ listing: 1, address: 3 })
    expect(three.response.attestationLookup).toEqual({ path: 'address', addresses: 3, probed: { total: 478, size: 100 } })
    expect(three.verdicts).toEqual((await verify(addresses.slice(0, 3), 'listing')).verdicts)
    // One voter: E8 only, the listing cannot be cheaper.
    expect((await verify(addresses.slice(0, 1), 'auto')).index).toEqual({ listing: 0, address: 1 })
  })

  it('a revocation after the snapshot changes neither path at the snapshot', async () => {
    const addresses = voters.map((voter) => voter.address)
    for (const lookup of ['address', 'listing'] as const) {
      const atSnapshot = await verify(addresses, lookup)
      expect(atSnapshot.verdicts).toEqual(Object.fromEntries(voters.map((voter) => [voter.address, voter.expected])))
      const later = await verify(addresses, lookup, revokedAfter)
      expect(Object.values(later.verdicts).filter((reason) => reason === 'revoked')).toHaveLength(2)
    }
  })

  it("'listing' with an index that cannot list is refused before any request", async () => {
    const node = instrument(chain.provider)
    const error = await failure(
      verifyCredentials(node, {
        addresses: [voters[0]!.address],
        credentials: ['clean-hands'],
        blockNumber: snapshot,
        attestationIndex: { getAttestations: async () => [] },
        attestationLookup: 'listing',
      }),
    )
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(node.total()).toBe(0)
  })
})
