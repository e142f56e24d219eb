/**
 * The storage the local chain's contracts hold after each planned write, slot by slot, following
 * Solidity's storage layout of `contracts/*.sol`. The local chain writes its history as state at
 * each block (`hardhat_setStorageAt`) rather than as transactions, because EDR computes the state
 * of a block inside a `hardhat_mine` gap from such per-block state alone: the state a transaction
 * leaves is lost in the gap (see docs/devchain.md). A test holds these slots equal to what the
 * contracts' own setters write.
 */
import { encodeAbiParameters, keccak256, numberToHex, pad, type Address, type Hex } from 'viem'
import { sbtId } from '../chain/hub.js'
import type { ChainWrite } from './plan.js'

/** One storage slot of one contract, and its new value. */
export type StorageWrite = { address: Address; slot: Hex; value: Hex }

const word = (value: bigint): Hex => pad(numberToHex(value), { size: 32 })
const hashOf = (...values: Array<{ type: 'uint256' | 'bytes32' | 'address' | 'uint64'; value: bigint | Hex }>): bigint =>
  BigInt(keccak256(encodeAbiParameters(values.map(({ type }) => ({ type })), values.map(({ value }) => value))))

/**
 * The storage the writes have built so far, slot by slot, and how each further write changes it
 * (a shorter array or bytes value clears the slots of a longer one, as Solidity does).
 */
export class LocalChainStorage {
  private readonly values = new Map<string, bigint>()

  /**
   * The slot writes of one planned write, made in a block with `timestamp` (Sign Protocol stamps
   * attestations and revocations with it).
   */
  writes(write: ChainWrite, timestamp: bigint): StorageWrite[] {
    const entries: Array<[bigint, bigint]> = []
    switch (write.kind) {
      case 'set-sbt': {
        // LocalHub: mapping(bytes32 => SBT) sbtOwners at slot 0; SBT { uint256 expiry; uint256[] publicValues; bool revoked }.
        const base = sbtBase(write.subject, write.circuitId)
        entries.push([base, write.expiry], [base + 2n, 0n])
        this.array(write.to, base + 1n, write.publicValues, entries)
        break
      }
      case 'revoke-sbt':
        entries.push([sbtBase(write.subject, write.circuitId) + 2n, 1n])
        break
      case 'set-unique': {
        // LocalLegacyStore: mapping(address => mapping(uint256 => bool)) at slot 0.
        const inner = hashOf({ type: 'address', value: write.user }, { type: 'uint256', value: 0n })
        entries.push([hashOf({ type: 'uint256', value: write.actionId }, { type: 'uint256', value: inner }), 1n])
        break
      }
      case 'attest': {
        // LocalSignProtocol: mapping(uint64 => Attestation) at slot 0. Slot 0 of the struct packs
        // schemaId, linkedAttestationId, attestTimestamp, revokeTimestamp (8 bytes each, from the
        // right); slot 1 attester (20 bytes), validUntil (8), dataLocation (1), revoked (1);
        // slot 2 bytes[] recipients; slot 3 bytes data (left empty).
        const base = attestationBase(write.attestationId)
        entries.push([base, write.schemaId | (timestamp << 128n)], [base + 1n, BigInt(write.attester) | (write.validUntil << 160n)])
        this.bytesArray(write.to, base + 2n, write.recipients, entries)
        break
      }
      case 'set-passport-score':
        // LocalPassportDecoder: mapping(address => Score) at slot 0; Score packs score (4 bytes),
        // time (8), expirationTime (8) from the right.
        entries.push([passportSlot(write.user), write.score | (write.time << 32n) | (write.expirationTime << 96n)])
        break
      case 'revoke-passport-score':
        entries.push([passportSlot(write.user), 0n])
        break
      case 'revoke-attestation': {
        const base = attestationBase(write.attestationId)
        const keep64 = (1n << 192n) - 1n
        entries.push([base, (this.read(write.to, base) & keep64) | (timestamp << 192n)], [base + 1n, this.read(write.to, base + 1n) | (1n << 232n)])
        break
      }
    }
    // Only the slots that change: an unchanged one (a zero never written, a value written again) needs no write.
    const changed: StorageWrite[] = []
    for (const [slot, value] of entries) {
      if (this.read(write.to, slot) === value) continue
      this.values.set(key(write.to, slot), value)
      changed.push({ address: write.to, slot: word(slot), value: word(value) })
    }
    return changed
  }

  private read(address: Address, slot: bigint): bigint {
    return this.values.get(key(address, slot)) ?? 0n
  }

  /** A `uint256[]` at `slot`: its length there, its elements from keccak256(slot). */
  private array(address: Address, slot: bigint, values: readonly bigint[], entries: Array<[bigint, bigint]>): void {
    const start = hashOf({ type: 'uint256', value: slot })
    const old = Number(this.read(address, slot))
    entries.push([slot, BigInt(values.length)])
    values.forEach((value, index) => entries.push([start + BigInt(index), value]))
    for (let index = values.length; index < old; index++) entries.push([start + BigInt(index), 0n])
  }

  /** A `bytes[]` at `slot`: its length there, each element a `bytes` value at keccak256(slot) + i. */
  private bytesArray(address: Address, slot: bigint, values: readonly Hex[], entries: Array<[bigint, bigint]>): void {
    const start = hashOf({ type: 'uint256', value: slot })
    const old = Number(this.read(address, slot))
    entries.push([slot, BigInt(values.length)])
    values.forEach((value, index) => this.bytes(address, start + BigInt(index), value, entries))
    for (let index = values.length; index < old; index++) this.bytes(address, start + BigInt(index), '0x', entries)
  }

  /**
   * A `bytes` value at `slot`: under 32 bytes, the data left-aligned with `length * 2` in the last
   * byte; otherwise `length * 2 + 1` there and the data from keccak256(slot), 32 bytes a slot.
   */
  private bytes(address: Address, slot: bigint, value: Hex, entries: Array<[bigint, bigint]>): void {
    const data = value.slice(2)
    const length = data.length / 2
    const start = hashOf({ type: 'uint256', value: slot })
    const oldHead = this.read(address, slot)
    const oldSlots = (oldHead & 1n) === 1n ? Math.ceil(Number((oldHead - 1n) / 2n) / 32) : 0
    if (length < 32) {
      entries.push([slot, BigInt(`0x${data.padEnd(62, '0')}${(length * 2).toString(16).padStart(2, '0')}`)])
    } else {
      entries.push([slot, BigInt(length * 2 + 1)])
      for (let index = 0; index * 32 < length; index++) {
        entries.push([start + BigInt(index), BigInt(`0x${data.slice(index * 64, index * 64 + 64).padEnd(64, '0')}`)])
      }
    }
    const newSlots = length < 32 ? 0 : Math.ceil(length / 32)
    for (let index = newSlots; index < oldSlots; index++) entries.push([start + BigInt(index), 0n])
  }
}

function sbtBase(subject: Address, circuitId: Hex): bigint {
  return hashOf({ type: 'bytes32', value: sbtId(subject, circuitId) }, { type: 'uint256', value: 0n })
}

function passportSlot(user: Address): bigint {
  return hashOf({ type: 'address', value: user }, { type: 'uint256', value: 0n })
}

function attestationBase(attestationId: bigint): bigint {
  return hashOf({ type: 'uint64', value: attestationId }, { type: 'uint256', value: 0n })
}

function key(address: Address, slot: bigint): string {
  return `${address.toLowerCase()}:${slot}`
}
