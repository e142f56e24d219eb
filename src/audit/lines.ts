/**
 * The voters' lines of an audit, kept compact so that 100,000 voters fit in tens of MB. A line holds
 * what the report shows (the vote, eligibility, method, score, the Passport line, each verdict's
 * source, credential, reason and expiry, linked wallets); verdicts that read the same are one shared
 * object. What each verdict rests on (its evidence: contract reads, attestation rows, score records,
 * about 5 KB of JSON a voter) is kept apart, packed: its JSON deflated against the first voter's as
 * a dictionary (a few hundred bytes a voter), and read back one voter at a time when the audit is
 * sealed or written.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { stringifyJson } from '../utils/json.js'
import type { AuditEvidence, AuditResult, AuditSourceVerdict, AuditVoter } from './types.js'

/** A builder of {@link AuditEvidence}: one `set` per voter, in any order. */
export type AuditEvidencePacker = {
  set(index: number, evidence: readonly unknown[]): void
  done(): AuditEvidence
}

/** Deflate keeps the last 32 KB as its window: a dictionary longer than that is cut to its end. */
const maxDictionaryBytes = 32 * 1024

/**
 * Packs voters' evidence (see the module's comment), each voter's entry kept in `slabs` (new ones by
 * default; a test passes its own to see what the packer holds).
 *
 * @example
 * const packer = createEvidencePacker(2)
 * packer.set(0, [{ kind: 'chain', blockNumber: 1n }])
 * packer.set(1, [undefined])
 * packer.done().of(0) // [{ kind: 'chain', blockNumber: '1' }]
 */
export function createEvidencePacker(size: number, slabs: ByteSlabs = createByteSlabs()): AuditEvidencePacker {
  // Where each voter's entry is in the slabs (-1: none yet).
  const refs = new Float64Array(size).fill(-1)
  let dictionary: Buffer | undefined
  let bytes = 0
  return {
    set(index, evidence) {
      // A verdict without evidence is [] and one with it [evidence], so `undefined` and `null` stay apart.
      const text = Buffer.from(stringifyJson(evidence.map((item) => (item === undefined ? [] : [item]))))
      // The dictionary is a copy of its own: `text` may be a slice of Node's shared pool.
      dictionary ??= copyApart(text.subarray(Math.max(0, text.length - maxDictionaryBytes)))
      const entry = deflateRawSync(text, { dictionary })
      if (refs[index]! >= 0) bytes -= slabs.read(refs[index]!).length
      bytes += entry.length
      refs[index] = slabs.keep(entry)
    },
    done() {
      const used = dictionary
      return {
        size,
        bytes: bytes + (used?.length ?? 0),
        of(index) {
          const ref = refs[index] ?? -1
          if (ref < 0 || used === undefined) return []
          const items = JSON.parse(inflateRawSync(slabs.read(ref), { dictionary: used }).toString('utf8')) as unknown[][]
          return items.map((item) => (item.length ? item[0] : undefined))
        },
      }
    },
  }
}

/** Bytes of one slab of {@link createByteSlabs}: about 3,000 voters' packed evidence. */
const slabBytes = 1 << 20

/** Byte strings kept one after another in slabs of their own (see {@link createByteSlabs}). */
export type ByteSlabs = {
  /** Copies `bytes` in; answers where they are. */
  keep(bytes: Uint8Array): number
  /** The bytes kept at `ref` (a view of the slab). */
  read(ref: number): Buffer
  /** The memory the slabs hold. */
  buffers(): readonly ArrayBuffer[]
}

/**
 * Keeps many small byte strings copied into 1 MB slabs allocated apart from Node's shared 8 KB pool.
 * A small Buffer (a copy of zlib's answer, for instance) is cut from that pool, beside the pool's
 * other, short-lived buffers (each voter's JSON text), and holds the whole 8 KB pool alive: the
 * audit's evidence held 4 KB a voter where an entry is 350 bytes (204 MB at 50,000 voters).
 */
export function createByteSlabs(): ByteSlabs {
  const slabs: Buffer[] = []
  let used = slabBytes
  // Of each string kept, by its ref: its slab, its offset there and its length.
  const where: number[] = []
  return {
    keep(bytes) {
      if (used + bytes.length > slabBytes) {
        // A new slab (one of its own for a string larger than a slab, which is then full).
        slabs.push(Buffer.allocUnsafeSlow(Math.max(slabBytes, bytes.length)))
        used = 0
      }
      slabs.at(-1)!.set(bytes, used)
      where.push(slabs.length - 1, used, bytes.length)
      used += bytes.length
      return where.length / 3 - 1
    },
    read(ref) {
      const [slab, offset, length] = [where[3 * ref]!, where[3 * ref + 1]!, where[3 * ref + 2]!]
      return slabs[slab]!.subarray(offset, offset + length)
    },
    buffers: () => slabs.map((slab) => slab.buffer as ArrayBuffer),
  }
}

/** A copy of `bytes` in memory of its own, not a slice of Node's shared pool. */
function copyApart(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length)
  bytes.copy(copy)
  return copy
}

/**
 * The parts of the voters' lines that read the same from voter to voter, each kept once as a shared,
 * frozen object: a verdict (source, credential, reason, expiry...), a voter's list of verdicts (most
 * voters' lists are one of a few: none of the credentials, and the same Passport verdict), and a
 * Passport line (score, passing, threshold, origin).
 */
export type VerdictTable = {
  intern(verdict: Omit<AuditSourceVerdict, 'evidence'>): AuditSourceVerdict
  /** The verdicts, each interned, as one shared list. */
  list(verdicts: readonly Omit<AuditSourceVerdict, 'evidence'>[]): AuditSourceVerdict[]
  passport(line: NonNullable<AuditVoter['passport']>): NonNullable<AuditVoter['passport']>
}

/** A table of shared parts of lines for one audit. */
export function createVerdictTable(): VerdictTable {
  const shared = new Map<string, AuditSourceVerdict>()
  // Each shared verdict's number, for the key of a list.
  const numbers = new Map<AuditSourceVerdict, number>()
  const lists = new Map<string, AuditSourceVerdict[]>()
  const passports = new Map<string, NonNullable<AuditVoter['passport']>>()
  const intern: VerdictTable['intern'] = (verdict) => {
    const key = stringifyJson(verdict)
    let found = shared.get(key)
    if (found === undefined) {
      found = frozenCopy(verdict)
      shared.set(key, found)
      numbers.set(found, numbers.size)
    }
    return found
  }
  return {
    intern,
    list(verdicts) {
      const interned = verdicts.map(intern)
      const key = interned.map((verdict) => numbers.get(verdict)).join(',')
      let found = lists.get(key)
      if (found === undefined) {
        found = Object.freeze(interned) as AuditSourceVerdict[]
        lists.set(key, found)
      }
      return found
    },
    passport(line) {
      const key = stringifyJson(line)
      let found = passports.get(key)
      if (found === undefined) {
        found = frozenCopy(line)
        passports.set(key, found)
      }
      return found
    },
  }
}

/**
 * A frozen copy of `value`, its properties added one by one. Not `Object.freeze({ ...value })`: a
 * spread of objects of many shapes (the verdicts of every source) gives a copy V8 cannot freeze
 * within its shared shapes, so each frozen copy got a shape of its own (a map and its descriptors,
 * about 280 bytes: 20,000 of them after the 50,000-voter audit, one per distinct verdict).
 */
function frozenCopy<T extends object>(value: T): T {
  return Object.freeze(Object.assign({}, value))
}

/** A voter's links when there are none: one shared, frozen empty list. */
export const noLinkedWallets: AuditVoter['linked'] = Object.freeze([]) as unknown as AuditVoter['linked']

/**
 * The voter at `index` as `audit.json` holds it: its line with each verdict's evidence back in place.
 *
 * @example
 * import { auditVoterLine } from 'personhood/audit'
 * const first = auditVoterLine(result, 0)
 * first.verdicts[0]?.evidence // what the first verdict rests on
 */
export function auditVoterLine(result: Pick<AuditResult, 'voters' | 'evidence'>, index: number): AuditVoter {
  const voter = result.voters[index]!
  if (!result.evidence) return voter
  const evidence = result.evidence.of(index)
  return { ...voter, verdicts: voter.verdicts.map((verdict, at) => (evidence[at] === undefined ? verdict : { ...verdict, evidence: evidence[at] })) }
}
