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
 * Packs voters' evidence (see the module's comment).
 *
 * @example
 * const packer = createEvidencePacker(2)
 * packer.set(0, [{ kind: 'chain', blockNumber: 1n }])
 * packer.set(1, [undefined])
 * packer.done().of(0) // [{ kind: 'chain', blockNumber: '1' }]
 */
export function createEvidencePacker(size: number): AuditEvidencePacker {
  // Where each voter's entry is: its slab, its offset in the slab and its length (length 0: none).
  const slabOf = new Uint32Array(size)
  const offsetOf = new Uint32Array(size)
  const lengthOf = new Uint32Array(size)
  const slabs: Buffer[] = []
  let slab = Buffer.allocUnsafeSlow(0)
  let used = 0
  let dictionary: Buffer | undefined
  let bytes = 0
  /**
   * Keeps `entry` in a slab of the packer's own (allocated apart from Node's shared 8 KB pool): a
   * small Buffer copied out of zlib's answer lands in that pool, beside the pool's other, short-lived
   * buffers (the voter's JSON text), and holds the whole 8 KB pool alive: 4 KB a voter where the
   * entry is 350 bytes.
   */
  const keep = (index: number, entry: Buffer) => {
    if (used + entry.length > slab.length) {
      slab = Buffer.allocUnsafeSlow(Math.max(slabBytes, entry.length))
      slabs.push(slab)
      used = 0
    }
    entry.copy(slab, used)
    slabOf[index] = slabs.length - 1
    offsetOf[index] = used
    lengthOf[index] = entry.length
    used += entry.length
  }
  return {
    set(index, evidence) {
      // A verdict without evidence is [] and one with it [evidence], so `undefined` and `null` stay apart.
      const text = Buffer.from(stringifyJson(evidence.map((item) => (item === undefined ? [] : [item]))))
      // The dictionary is a copy of its own, for the same reason as the entries.
      dictionary ??= copyApart(text.subarray(Math.max(0, text.length - maxDictionaryBytes)))
      const entry = deflateRawSync(text, { dictionary })
      bytes += entry.length - lengthOf[index]!
      keep(index, entry)
    },
    done() {
      const dictionaryUsed = dictionary
      return {
        size,
        bytes: bytes + (dictionaryUsed?.length ?? 0),
        of(index) {
          const length = lengthOf[index] ?? 0
          if (length === 0 || dictionaryUsed === undefined) return []
          const entry = slabs[slabOf[index]!]!.subarray(offsetOf[index]!, offsetOf[index]! + length)
          const items = JSON.parse(inflateRawSync(entry, { dictionary: dictionaryUsed }).toString('utf8')) as unknown[][]
          return items.map((item) => (item.length ? item[0] : undefined))
        },
      }
    },
  }
}

/** Bytes of one slab of packed entries: about 3,000 voters' evidence. */
const slabBytes = 1 << 20

/** A copy of `bytes` in memory of its own, not a slice of Node's shared pool. */
function copyApart(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length)
  bytes.copy(copy)
  return copy
}

/** Verdicts that read the same (source, credential, reason, expiry...) as one shared object. */
export type VerdictTable = { intern(verdict: Omit<AuditSourceVerdict, 'evidence'>): AuditSourceVerdict }

/** A table of shared verdicts for one audit. */
export function createVerdictTable(): VerdictTable {
  const shared = new Map<string, AuditSourceVerdict>()
  return {
    intern(verdict) {
      const key = stringifyJson(verdict)
      let found = shared.get(key)
      if (found === undefined) {
        found = Object.freeze({ ...verdict })
        shared.set(key, found)
      }
      return found
    },
  }
}

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
