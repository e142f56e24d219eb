import { getAddress, type Address } from 'viem'
import { describe, expect, test } from 'vitest'
import { findLinkedWallets, type StampEntries } from '../../src/audit/linked.js'

const at = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`) as Address
const expiry = '2026-12-01T00:00:00.000Z'
const counted = { dedup: false, expiration_date: expiry }
const copy = { dedup: true, expiration_date: expiry }

describe('findLinkedWallets', () => {
  test('links each copy to the voter whose stamp of the same provider and expiry counts', () => {
    const records = new Map<Address, StampEntries>([
      [at(1), { Google: counted, Github: { dedup: false, expiration_date: '2026-11-01T00:00:00Z' } }],
      [at(2), { Google: copy }],
      [at(3), { Google: copy, Github: { dedup: false, expiration_date: '2027-01-01T00:00:00Z' } }],
      [at(4), { Discord: counted }],
    ])
    const signals = findLinkedWallets(records)
    expect(signals.get(at(2).toLowerCase())).toEqual([{ kind: 'dedup-stamp', provider: 'Google', otherAddress: at(1), basis: 'same-credential' }])
    expect(signals.get(at(3).toLowerCase())).toEqual([{ kind: 'dedup-stamp', provider: 'Google', otherAddress: at(1), basis: 'same-credential' }])
    expect(signals.has(at(1).toLowerCase())).toBe(false)
    expect(signals.has(at(4).toLowerCase())).toBe(false)
  })

  test('copies whose holder did not vote are linked to each other', () => {
    const records = new Map<Address, StampEntries>([
      [at(7), { Google: copy }],
      [at(5), { Google: copy }],
    ])
    const signals = findLinkedWallets(records)
    expect(signals.get(at(7).toLowerCase())?.[0]?.otherAddress).toBe(at(5))
    expect(signals.get(at(5).toLowerCase())?.[0]?.otherAddress).toBe(at(7))
  })

  test('a wallet the service names wins; a lone copy is still a signal, without an address', () => {
    const named = '0x00000000000000000000000000000000000000aa'
    const records = new Map<Address, StampEntries>([
      [at(1), { Google: counted }],
      [at(2), { Google: { ...copy, source_wallet: named } }],
      [at(3), { Twitter: { dedup: true, expiration_date: '2026-10-10T00:00:00Z' } }],
    ])
    const signals = findLinkedWallets(records)
    expect(signals.get(at(2).toLowerCase())).toEqual([{ kind: 'dedup-stamp', provider: 'Google', otherAddress: getAddress(named), basis: 'named-by-service' }])
    expect(signals.get(at(3).toLowerCase())).toEqual([{ kind: 'dedup-stamp', provider: 'Twitter' }])
  })

  test('two voters holding counted copies of the same expiry do not make a guess', () => {
    const records = new Map<Address, StampEntries>([
      [at(1), { Google: counted }],
      [at(2), { Google: counted }],
      [at(3), { Google: copy }],
    ])
    expect(findLinkedWallets(records).get(at(3).toLowerCase())).toEqual([{ kind: 'dedup-stamp', provider: 'Google' }])
  })
})
