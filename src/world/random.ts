import { keccak256, toBytes } from 'viem'

/**
 * A small seeded pseudo-random generator (sfc32). Not for secrets: it makes demo data reproducible.
 * @internal
 */
export type Random = {
  /** A float in [0, 1). */
  next(): number
  /** An unsigned 32-bit integer. */
  uint32(): number
  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number
  /** A float in [min, max). */
  float(min: number, max: number): number
  /** True with probability `p`. */
  chance(p: number): boolean
  /** One item, uniformly. */
  pick<T>(items: readonly T[]): T
  /** One key, with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K
  /** `n` pseudo-random bytes. */
  bytes(n: number): Uint8Array
  /** A copy of `items`, shuffled. */
  shuffle<T>(items: readonly T[]): T[]
  /**
   * An independent generator that depends only on this generator's seed and `label`, not on how
   * many numbers were drawn: a wallet's data does not change when the number of wallets does.
   */
  fork(label: string | number): Random
}

/** Seeds a {@link Random} from a string (via keccak256). @internal */
export function createRandom(seed: string): Random {
  const bytes = keccak256(toBytes(seed), 'bytes')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return fromWords([view.getUint32(0), view.getUint32(4), view.getUint32(8), view.getUint32(12)])
}

function fromWords(seed: readonly [number, number, number, number]): Random {
  let [a, b, c, d] = seed
  const uint32 = (): number => {
    a >>>= 0
    b >>>= 0
    c >>>= 0
    d >>>= 0
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
  for (let i = 0; i < 15; i++) uint32()
  const next = (): number => uint32() / 4294967296
  const random: Random = {
    next,
    uint32,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick(items) {
      if (items.length === 0) throw new RangeError('Cannot pick from an empty list.')
      return items[Math.floor(next() * items.length)] as (typeof items)[number]
    },
    weighted(weights) {
      const entries = Object.entries(weights) as Array<[keyof typeof weights, number]>
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0)
      let roll = next() * total
      for (const [key, weight] of entries) {
        roll -= weight
        if (roll < 0) return key
      }
      return entries[entries.length - 1]![0]
    },
    bytes(n) {
      const out = new Uint8Array(n)
      for (let i = 0; i < n; i += 4) {
        const word = uint32()
        for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = (word >>> (8 * j)) & 0xff
      }
      return out
    },
    shuffle(items) {
      const out = [...items]
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1))
        ;[out[i], out[j]] = [out[j]!, out[i]!]
      }
      return out
    },
    fork(label) {
      let h = fnv1a(String(label))
      const mix = (): number => {
        // splitmix32
        h = (h + 0x9e3779b9) | 0
        let z = h
        z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
        z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
        return (z ^ (z >>> 16)) >>> 0
      }
      return fromWords([seed[0] ^ mix(), seed[1] ^ mix(), seed[2] ^ mix(), seed[3] ^ mix()])
    },
  }
  return random
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}
