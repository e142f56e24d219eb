/**
 * Gas of the human-id deployless reader (strategies/human-id/reader.sol), measured on the local
 * chain (an in-process EDR node with the Human ID contracts, test/chain/harness.ts): per voter and
 * credential, for each way a read can go, and for 500 voters with all four credentials; without
 * expiries (the score-api folder) and with them (the library).
 *
 * Each figure is `eth_estimateGas` of the reader with 2n voters of one kind minus the same with n
 * (so the call's own cost cancels), divided by n; every voter is a distinct address, so its
 * storage is cold, as on a real node. `npx tsx bench/human-id-reader.ts`; the folder README quotes
 * the table.
 */
import { encodeAbiParameters, hexToBigInt, numberToHex, parseAbiParameters, zeroAddress, type Address, type Hex } from 'viem'
import { optimismNetwork } from '../src/chain/constants.js'
import { planReaderChunk, readerArgs, readerCode, readerValues, type ReaderAsk } from '../src/rules/reader.js'
import { TestChain } from '../test/chain/harness.js'

const n = 100
const chain = await TestChain.start({ blockGasLimit: 1_000_000_000 })
const { timestamp } = await chain.latest()
const future = timestamp + 365n * 86_400n
const network = optimismNetwork
let next = 0x100000
const fresh = () => `0x${(next++).toString(16).padStart(40, '0')}` as Address

type Credential = 'gov-id' | 'phone' | 'biometrics'
const ask = (credentials: readonly Credential[]): ReaderAsk => ({
  hub: network.contracts.hub,
  actionId: 123456789n,
  circuits: credentials.map((credential) => ({
    credential,
    circuitId: network.circuitIds[credential],
    issuer: network.issuers[credential],
    store: credential === 'biometrics' ? zeroAddress : credential === 'gov-id' ? network.contracts.govIdLegacyStore! : network.contracts.phoneLegacyStore!,
  })),
  passport: { circuitId: network.circuitIds['zk-passport'], issuer: network.issuers['zk-passport'] },
  signProtocol: network.contracts.signProtocol!,
  schemaId: 8n,
  attester: network.cleanHands.attester,
})

/**
 * The reader's call data, as the library and the folder build it (src/rules/reader.ts):
 * with expiries (the library) or without (the folder).
 */
function readerData(credentials: readonly Credential[], voters: readonly Address[], attestations: readonly { id: bigint; recipient: number }[], expiries: boolean) {
  const layout = { credentials: attestations.length > 0 ? [...credentials, 'clean-hands'] : credentials, expiries }
  const chunk = planReaderChunk(
    layout,
    [...voters],
    attestations.map(({ id, recipient }) => [id, voters[recipient]!]),
  )
  const args = encodeAbiParameters(parseAbiParameters(readerArgs.join(', ')), readerValues(layout, ask(credentials), chunk) as never)
  const data = `${readerCode}${args.slice(2)}` as Hex
  if ((data.length - 2) / 2 > 49_152) throw new Error(`call data of ${(data.length - 2) / 2} bytes is over the limit`)
  return { data, returned: chunk.bytes }
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

/** Gas without expiries (the folder) and with (the library). */
const rows: { case: string; gas: bigint; withExpiries: bigint }[] = []
/** The gas of 2n voters (or attestations) less that of n, over n, without and with expiries. */
async function perUnit(data: (count: number, expiries: boolean) => Hex): Promise<[bigint, bigint]> {
  const [without, withExpiries] = [false, true].map(async (expiries) => ((await gas(data(2 * n, expiries))) - (await gas(data(n, expiries)))) / BigInt(n))
  return [await without!, await withExpiries!]
}
async function perVoter(label: string, credentials: readonly Credential[], make: (voter: Address) => Promise<unknown>) {
  const voters = await kind(2 * n, make)
  const [without, withExpiries] = await perUnit((count, expiries) => readerData(credentials, voters.slice(0, count), [], expiries).data)
  rows.push({ case: label, gas: without, withExpiries })
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
const [attestation, attestationWithExpiries] = await perUnit((count, expiries) => readerData([], holders, held.slice(0, count), expiries).data)
rows.push({ case: 'clean hands: per attestation (getAttestation)', gas: attestation, withExpiries: attestationWithExpiries })

// The budget case: 500 voters, all four credentials, nobody holding an SBT (every fallback read),
// one attestation each.
const worst = await kind(500, async () => {})
const worstHeld: { id: bigint; recipient: number }[] = []
for (const [index, voter] of worst.entries()) {
  await chain.attest({ attestationId: id, recipient: voter, validUntil: future })
  worstHeld.push({ id: id++, recipient: index })
}
const [worstData, worstWithExpiries] = [false, true].map((expiries) => readerData(['gov-id', 'phone', 'biometrics'], worst, worstHeld, expiries))
const [empty, emptyWithExpiries] = [await gas(readerData([], [], [], false).data), await gas(readerData([], [], [], true).data)]
rows.push({ case: 'the call itself (no voter)', gas: empty, withExpiries: emptyWithExpiries })
rows.push({ case: '500 voters, 4 credentials, every fallback read, 1 attestation each', gas: await gas(worstData!.data), withExpiries: await gas(worstWithExpiries!.data) })
const sent = (worstData!.data.length - 2) / 2

console.log('| case | gas | with expiries |')
console.log('| --- | ---: | ---: |')
for (const row of rows) console.log(`| ${row.case} | ${row.gas.toLocaleString('en-US')} | ${row.withExpiries.toLocaleString('en-US')} |`)
console.log(
  `\nThat call sends ${sent.toLocaleString('en-US')} bytes (limit 49,152) and returns ${worstData!.returned.toLocaleString('en-US')}, with expiries ${worstWithExpiries!.returned.toLocaleString('en-US')} (limit 24,576).`,
)
process.exit(0)
