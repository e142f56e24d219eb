/**
 * The headers of the blocks strategies score at, kept for the process and shared by every strategy
 * of the library (as the score-api folder keeps the snapshot's time for its process). A final
 * block's header never changes, so it is read once per process; a block that a reorganisation may
 * still reach is kept only for the length of a call, so that a strategy and the strategies it wraps
 * (human-gated and its inner strategies) read it once between them. 'latest' is never kept.
 *
 * Kept per provider (the same block number of another provider may be another chain, a restarted
 * local one for example) and per network, at most {@link headerCacheEntries} blocks per provider,
 * the least recently used going first.
 */

/** A block's number and time, Unix seconds. */
export type KnownHeader = { blockNumber: bigint; timestamp: number }

/** Blocks kept per provider. */
export const headerCacheEntries = 1_000

/**
 * How old a block must be, by the call's clock, to be final: 15 minutes (Ethereum finalizes in
 * about 13; an OP Stack chain's blocks are final once their batch is, which takes about as long).
 */
export const finalBlockAgeMs = 15 * 60 * 1000

/** How long a header of a block not yet final is kept: about one call (score-api's deadline is 20 s). */
export const recentHeaderMs = 20_000

type Entry = { header: KnownHeader; expiresAt: number }

const byProvider = new WeakMap<object, Map<string, Entry>>()

/** The header of block `blockNumber` of `network` as `provider` answered it, when kept; never sends a request. */
export function knownHeader(provider: unknown, network: string, blockNumber: bigint, now: number): KnownHeader | undefined {
  if (!isObject(provider)) return undefined
  const entries = byProvider.get(provider)
  const key = `${network}:${blockNumber}`
  const entry = entries?.get(key)
  if (entries === undefined || entry === undefined) return undefined
  if (entry.expiresAt <= now) {
    entries.delete(key)
    return undefined
  }
  // Most recently used last.
  entries.delete(key)
  entries.set(key, entry)
  return entry.header
}

/** Keeps a header `provider` answered for a numbered block: for good when final at `now`, else for {@link recentHeaderMs}. */
export function keepHeader(provider: unknown, network: string, header: KnownHeader, now: number): void {
  if (!isObject(provider)) return
  let entries = byProvider.get(provider)
  if (entries === undefined) byProvider.set(provider, (entries = new Map()))
  const key = `${network}:${header.blockNumber}`
  const final = header.timestamp * 1000 <= now - finalBlockAgeMs
  entries.delete(key)
  entries.set(key, { header, expiresAt: final ? Infinity : now + recentHeaderMs })
  while (entries.size > headerCacheEntries) entries.delete(entries.keys().next().value as string)
}

function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function'
}
