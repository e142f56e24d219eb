/**
 * Gas of the human-id folder's deployless reader (strategies/human-id/reader.sol), measured on the
 * local chain (an in-process EDR node with the Human ID contracts, test/chain/harness.ts): per voter
 * and credential, for each way a read can go, and for 500 voters with all four credentials.
 *
 * Each figure is `eth_estimateGas` of the reader with 2n voters of one kind minus the same with n
 * (so the call's own cost cancels), divided by n; every voter is a distinct address, so its
 * storage is cold, as on a real node. `npx tsx bench/human-id-reader.ts`; the folder README quotes
 * the table.
 */
import { encodeAbiParameters, hexToBigInt, numberToHex, zeroAddress, type Address, type Hex } from 'viem'
import { optimismNetwork } from '../src/chain/constants.js'
import { readerCodeInModule } from '../scripts/strategy-reader.js'
import { TestChain } from '../test/chain/harness.js'

const n = 100
const chain = await TestChain.start({ blockGasLimit: 1_000_000_000 })
const code = (await readerCodeInModule()) as Hex
const { timestamp } = await chain.latest()
const future = timestamp + 365n * 86_400n
const network = optimismNetwork
let next = 0x100000
const fresh = () => `0x${(next++).toString(16).padStart(40, '0')}` as Address

type Credential = 'gov-id' | 'phone' | 'biometrics'
const circuit = (credential: Credential) =>
  [
    network.circuitIds[credential],
    network.issuers[credential],
    credential === 'biometrics' ? zeroAddress : credential === 'gov-id' ? network.contracts.govIdLegacyStore! : network.contracts.phoneLegacyStore!,
    credential === 'gov-id',
  ] as const

const tuple = { type: 'tuple', components: [{ type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }, { type: 'bool' }] } as const

/** The reader's call data, as index.ts builds it: voters packed, attestations asked for a recipient among them. */
function readerData(credentials: readonly Credential[], voters: readonly Address[], attestations: readonly { id: bigint; recipient: number }[]): Hex {
  const args = encodeAbiParameters(
    [
      { type: 'tuple', components: [{ type: 'address' }, { type: 'uint256' }, tuple] },
      { ...tuple, type: 'tuple[]' },
      { type: 'bytes' },
      { type: 'tuple', components: [{ type: 'address' }, { type: 'uint64' }, { type: 'address' }] },
      { type: 'bytes' },
    ],
    [
      [network.contracts.hub, 123456789n, [network.circuitIds['zk-passport'], network.issuers['zk-passport'], zeroAddress, false]],
      credentials.map(circuit),
      `0x${voters.map((voter) => voter.slice(2)).join('')}`,
      [network.contracts.signProtocol!, 8n, network.cleanHands.attester],
      `0x${attestations.map(({ id, recipient }) => id.toString(16).padStart(16, '0') + recipient.toString(16).padStart(4, '0')).join('')}`,
    ],
  )
  const data = `${code}${args.slice(2)}` as Hex
  if ((data.length - 2) / 2 > 49_152) throw new Error(`call data of ${(data.length - 2) / 2} bytes is over the limit`)
  return data
}

async function gas(data: Hex): Promise<bigint> {
  const answer = (await chain.provider.request({ method: 'eth_estimateGas', params: [{ data, gas: numberToHex(1_000_000_000n) }, 'latest'] })) as Hex
  return hexToBigInt(answer)
}

/** Voters of one kind: `make` gives each what it holds on chain. */
async function kind(count: number, make: (voter: Address) => Promise<unknown>): Promise<Address[]> {
  const voters: Address[] = []
  for (let i = 0; i < count; i++) {
    const voter = fresh()
    await make(voter)
    voters.push(voter)
  }
  return voters
}

const rows: { case: string; gas: bigint }[] = []
async function perVoter(label: string, credentials: readonly Credential[], make: (voter: Address) => Promise<unknown>) {
  const voters = await kind(2 * n, make)
  const one = await gas(readerData(credentials, voters.slice(0, n), []))
  const two = await gas(readerData(credentials, voters, []))
  rows.push({ case: label, gas: (two - one) / BigInt(n) })
}

await perVoter('gov-id: valid SBT (getSBT)', ['gov-id'], (voter) => chain.issueSBT(voter, 'gov-id', { expiry: future }))
await perVoter('gov-id: nothing (getSBT reverts, sbtOwners, zk-passport getSBT reverts, sbtOwners, permanent store)', ['gov-id'], async () => {})
await perVoter('phone: valid SBT', ['phone'], (voter) => chain.issueSBT(voter, 'phone', { expiry: future }))
await perVoter('phone: nothing (getSBT reverts, sbtOwners, permanent store)', ['phone'], async () => {})
await perVoter('biometrics: valid SBT', ['biometrics'], (voter) => chain.issueSBT(voter, 'biometrics', { expiry: future }))
await perVoter('biometrics: nothing (getSBT reverts, sbtOwners)', ['biometrics'], async () => {})
await perVoter('gov-id + phone + biometrics: nothing', ['gov-id', 'phone', 'biometrics'], async () => {})
// The dearest voters: an SBT that getSBT returns but that fails (expired), so every fallback read runs too.
const past = timestamp - 1n
await perVoter('gov-id: expired SBT, expired zk-passport SBT, permanent store', ['gov-id'], async (voter) => {
  await chain.issueSBT(voter, 'gov-id', { expiry: past })
  await chain.issueSBT(voter, 'zk-passport', { expiry: past })
})
await perVoter('phone: expired SBT, permanent store', ['phone'], (voter) => chain.issueSBT(voter, 'phone', { expiry: past }))
await perVoter('biometrics: expired SBT', ['biometrics'], (voter) => chain.issueSBT(voter, 'biometrics', { expiry: past }))

// Clean hands: per attestation confirmed (getAttestation of a stored attestation, recipient parsed).
let id = 0x10000n
const holders = await kind(2 * n, async () => {})
const held: { id: bigint; recipient: number }[] = []
for (const [index, holder] of holders.entries()) {
  await chain.attest({ attestationId: id, recipient: holder, validUntil: future })
  held.push({ id: id++, recipient: index })
}
const oneAttestation = await gas(readerData([], holders, held.slice(0, n)))
const twoAttestations = await gas(readerData([], holders, held))
rows.push({ case: 'clean hands: per attestation (getAttestation)', gas: (twoAttestations - oneAttestation) / BigInt(n) })

// The budget case: 500 voters, all four credentials, nobody holding an SBT (every fallback read),
// one attestation each.
const worst = await kind(500, async () => {})
const worstHeld: { id: bigint; recipient: number }[] = []
for (const [index, voter] of worst.entries()) {
  await chain.attest({ attestationId: id, recipient: voter, validUntil: future })
  worstHeld.push({ id: id++, recipient: index })
}
const worstData = readerData(['gov-id', 'phone', 'biometrics'], worst, worstHeld)
const all = await gas(worstData)
const empty = await gas(readerData([], [], []))
rows.push({ case: 'the call itself (no voter)', gas: empty })
rows.push({ case: '500 voters, 4 credentials, every fallback read, 1 attestation each', gas: all })
const returned = 96 + 500 * 8 + 500
const sent = (worstData.length - 2) / 2

console.log('| case | gas |')
console.log('| --- | ---: |')
for (const row of rows) console.log(`| ${row.case} | ${row.gas.toLocaleString('en-US')} |`)
console.log(`\nThat call sends ${sent.toLocaleString('en-US')} bytes (limit 49,152) and returns ${returned.toLocaleString('en-US')} (limit 24,576).`)
process.exit(0)
