/**
 * Linked-wallet signals from score records: a stamp deduplicated against another address means
 * the same credential was presented by two wallets. The services name the other wallet only in
 * some records (`source_wallet`); otherwise the credential is recognized among the voters by its
 * provider and expiry, which a deduplicated stamp reports as the expiry of the other wallet's copy.
 */
import type { Address } from 'viem'
import { checksumAddress, isValidAddress } from '../utils/address.js'
import type { LinkedWalletSignal } from './types.js'

/** The per-stamp entries of a score record (A1 `stamps`), as the linking reads them. */
export type StampEntries = Readonly<Record<string, { dedup: boolean; expiration_date?: string | null | undefined; source_wallet?: string | null | undefined }>>

/**
 * Linked-wallet signals of each voter: every deduplicated stamp, with the wallet that holds the
 * credential when the service names it (`source_wallet`) or when exactly one other voter holds a
 * counted stamp of the same provider and expiry.
 *
 * @param records each voter's stamp entries at the snapshot (voters without a score record are left out).
 * @returns signals by voter (lower-case address keys), only for voters that have any.
 */
export function findLinkedWallets(records: ReadonlyMap<Address, StampEntries>): Map<string, LinkedWalletSignal[]> {
  // Who holds each credential (provider and expiry): counted, and deduplicated.
  const holders = new Map<string, Address[]>()
  const copies = new Map<string, Address[]>()
  const key = (provider: string, expiry: string) => `${provider}\u0000${Date.parse(expiry)}`
  for (const [address, stamps] of records) {
    for (const [provider, entry] of Object.entries(stamps)) {
      if (!entry.expiration_date) continue
      const table = entry.dedup ? copies : holders
      const k = key(provider, entry.expiration_date)
      table.set(k, [...(table.get(k) ?? []), address])
    }
  }
  const others = (list: Address[] | undefined, address: Address) => (list ?? []).filter((other) => other.toLowerCase() !== address.toLowerCase()).sort()
  const signals = new Map<string, LinkedWalletSignal[]>()
  for (const [address, stamps] of records) {
    const mine: LinkedWalletSignal[] = []
    for (const [provider, entry] of Object.entries(stamps)) {
      if (!entry.dedup) continue
      let link: Pick<LinkedWalletSignal, 'otherAddress' | 'basis'> = {}
      if (entry.source_wallet && isValidAddress(entry.source_wallet) && entry.source_wallet.toLowerCase() !== address.toLowerCase()) {
        link = { otherAddress: checksumAddress(entry.source_wallet), basis: 'named-by-service' }
      } else if (entry.expiration_date) {
        const k = key(provider, entry.expiration_date)
        // The voter whose copy counts; else another voter whose copy was deduplicated too.
        const holder = others(holders.get(k), address)
        const fellow = others(copies.get(k), address)
        const other = holder.length === 1 ? holder[0] : holder.length === 0 ? fellow[0] : undefined
        if (other) link = { otherAddress: checksumAddress(other), basis: 'same-credential' }
      }
      mine.push({ kind: 'dedup-stamp', provider, ...link })
    }
    if (mine.length) signals.set(address.toLowerCase(), mine)
  }
  return signals
}
