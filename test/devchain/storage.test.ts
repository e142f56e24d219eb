/**
 * The local chain writes its history as storage slots (src/devchain/storage.ts). Those slots must be
 * exactly what the contracts' own setters write: each write below is made both ways, by a
 * transaction on one test chain and by the slot writer (`hardhat_setStorageAt`) on another, and
 * after each write every slot named so far holds the same value on both (so a slot the writer
 * forgot to clear shows too).
 */
import { encodeAbiParameters, hexToBigInt, pad, type Address, type Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { optimismNetwork } from '../../src/chain/constants.js'
import type { ChainWrite } from '../../src/devchain/plan.js'
import { LocalChainStorage } from '../../src/devchain/storage.js'
import { TestChain } from '../chain/harness.js'
import { freshAddress } from '../chain/helpers.js'

let chain: TestChain
let written: TestChain

beforeAll(async () => {
  chain = await TestChain.start()
  written = await TestChain.start()
})

const slotOn = async (on: TestChain, address: Address, slot: Hex) =>
  pad((await on.provider.request({ method: 'eth_getStorageAt', params: [address, slot, 'latest'] })) as Hex, { size: 32 })

/** Makes `write` through the contract's setter, mined at `timestamp`. */
async function transact(write: ChainWrite, timestamp: bigint): Promise<void> {
  switch (write.kind) {
    case 'set-sbt':
      await chain.write(write.to, 'LocalHub', 'setSBT', [write.subject, write.circuitId, write.expiry, write.publicValues], timestamp)
      return
    case 'revoke-sbt':
      await chain.write(write.to, 'LocalHub', 'revokeSBT', [write.subject, write.circuitId], timestamp)
      return
    case 'set-unique':
      await chain.write(write.to, 'LocalLegacyStore', 'setIsUniqueForAction', [write.user, write.actionId, true], timestamp)
      return
    case 'attest':
      await chain.write(write.to, 'LocalSignProtocol', 'attest', [write.attestationId, write.schemaId, write.attester, write.validUntil, write.recipients], timestamp)
      return
    case 'revoke-attestation':
      await chain.write(write.to, 'LocalSignProtocol', 'revoke', [write.attestationId], timestamp)
      return
    case 'set-passport-score':
      await chain.write(write.to, 'LocalPassportDecoder', 'setScore', [write.user, write.score, write.time, write.expirationTime], timestamp)
      return
    case 'revoke-passport-score':
      await chain.write(write.to, 'LocalPassportDecoder', 'revoke', [write.user], timestamp)
  }
}

const recipient = (address: string): Hex => encodeAbiParameters([{ type: 'string' }], [address])

describe('the local chain storage writer', () => {
  it('writes the slots the contracts write, for every kind of write', async () => {
    const subject = freshAddress()
    const other = freshAddress()
    const hub = optimismNetwork.contracts.hub
    const signProtocol = optimismNetwork.contracts.signProtocol as Address
    const circuitId = optimismNetwork.circuitIds.phone
    const decoder = optimismNetwork.contracts.passportDecoder as Address
    const writes: ChainWrite[] = [
      { kind: 'set-sbt', to: hub, subject, circuitId, expiry: 2_000_000_000n, publicValues: [2_000_000_000n, hexToBigInt(subject), 123456789n, 77n, optimismNetwork.issuers.phone] },
      // A replacement with fewer public values clears the old ones; then revoked.
      { kind: 'set-sbt', to: hub, subject, circuitId, expiry: 2_100_000_000n, publicValues: [5n] },
      { kind: 'revoke-sbt', to: hub, subject, circuitId },
      { kind: 'set-unique', to: optimismNetwork.contracts.govIdLegacyStore as Address, user: subject, actionId: 987654321n },
      // Long recipients (an ABI-encoded address string), then short and long bytes over each other.
      { kind: 'attest', to: signProtocol, attestationId: 0x1a4n, schemaId: 8n, attester: optimismNetwork.cleanHands.attester, validUntil: 2_000_000_000n, recipients: [recipient(subject)] },
      { kind: 'attest', to: signProtocol, attestationId: 0x1a5n, schemaId: 9n, attester: other, validUntil: 0n, recipients: ['0x1234', recipient(other)] },
      { kind: 'attest', to: signProtocol, attestationId: 0x1a5n, schemaId: 8n, attester: other, validUntil: 5n, recipients: [recipient(subject)] },
      { kind: 'attest', to: signProtocol, attestationId: 0x1a5n, schemaId: 8n, attester: other, validUntil: 6n, recipients: ['0xabcd'] },
      { kind: 'revoke-attestation', to: signProtocol, attestationId: 0x1a4n },
      // Passport's decoder: a push, a later push over it, a revocation.
      { kind: 'set-passport-score', to: decoder, user: subject, score: 234567n, time: 1_700_000_000n, expirationTime: 1_707_776_000n },
      { kind: 'set-passport-score', to: decoder, user: subject, score: 2n ** 32n - 1n, time: 1_700_000_100n, expirationTime: 2n ** 64n - 1n },
      { kind: 'revoke-passport-score', to: decoder, user: subject },
    ]
    const storage = new LocalChainStorage()
    const named = new Map<string, { address: Address; slot: Hex }>()
    let { timestamp } = await chain.latest()
    for (const write of writes) {
      timestamp += 7n
      await transact(write, timestamp)
      const slots = storage.writes(write, timestamp)
      expect(slots.length).toBeGreaterThan(0)
      for (const { address, slot, value } of slots) {
        await written.provider.request({ method: 'hardhat_setStorageAt', params: [address, slot, value] })
        named.set(`${address}:${slot}`, { address, slot })
        expect(await slotOn(chain, address, slot), `${write.kind} slot ${slot}`).toBe(value)
      }
      for (const { address, slot } of named.values()) {
        expect(await slotOn(written, address, slot), `after ${write.kind}, slot ${slot}`).toBe(await slotOn(chain, address, slot))
      }
    }
  })
})
