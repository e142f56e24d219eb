/**
 * Reading the votes of a proposal from a file: a Snapshot vote export as CSV (`address, choice,
 * voting_power, timestamp, author_ipfs_hash, reason`, or `choice.1..N` columns for weighted votes)
 * or JSON (an array of hub votes `{ voter, choice, vp, created, id }`, also inside `{ votes }` or a
 * GraphQL answer `{ data: { votes } }`). Every error names the file, the line and the field.
 */
import { parse as parseCsv } from 'csv-parse/sync'
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser'
import type { Address } from 'viem'
import { SnapshotHubError, VotesFileError } from '../errors/audit.js'
import { ConflictingRowsError } from '../rules/rows-error.js'
import { rowFingerprint, uniqueRowsByAddress } from '../rules/rows.js'
import { checksumAddress, isValidAddress } from '../utils/address.js'
import type { SnapshotVote, SnapshotVoteChoice } from '../clients/snapshot-hub.js'

/** A vote's choice as Snapshot records it (see {@link SnapshotVoteChoice}). */
export type VoteChoice = SnapshotVoteChoice

/** One vote, as the audit reads it: the hub's vote, and where it stands in its file. */
export type AuditVote = SnapshotVote & {
  /** Where the vote stands in its file (1-based), for messages. */
  line?: number | undefined
}

/** Parameters of {@link parseVotes}. */
export type ParseVotesParameters = {
  /** The file's text. */
  text: string
  /** The file's name, for messages; its extension picks the format unless `format` is given. */
  file: string
  format?: 'csv' | 'json' | undefined
}

/**
 * Reads the votes in a Snapshot vote export.
 *
 * @throws {VotesFileError} naming the line and field of the first problem: a syntax error, a
 *   missing column, a malformed address, choice or voting power, or a voter who appears twice.
 * @example
 * import { parseVotes } from 'personhood/audit'
 * const votes = parseVotes({ file: 'votes.csv', text: 'address,choice,voting_power\n0x52908400098527886E0F7030069857D2E4169EE7,1,12.5\n' })
 * votes[0]?.votingPower // 12.5
 */
export function parseVotes(parameters: ParseVotesParameters): AuditVote[] {
  const format = parameters.format ?? (/\.json$/i.test(parameters.file) ? 'json' : /\.csv$/i.test(parameters.file) ? 'csv' : sniff(parameters.text))
  const votes = format === 'json' ? parseJsonVotes(parameters.text, parameters.file) : parseCsvVotes(parameters.text, parameters.file)
  const seen = new Map<string, AuditVote>()
  for (const vote of votes) {
    const key = vote.voter.toLowerCase()
    const earlier = seen.get(key)
    if (earlier) {
      throw new VotesFileError({
        file: parameters.file,
        line: vote.line,
        field: 'voter',
        reason: `voter ${vote.voter} votes twice (also on line ${earlier.line}); a proposal counts one vote per voter.`,
      })
    }
    seen.set(key, vote)
  }
  return votes
}

function sniff(text: string): 'csv' | 'json' {
  const first = text.trimStart()[0]
  return first === '[' || first === '{' ? 'json' : 'csv'
}

// ---------------------------------------------------------------------------------------------
// CSV
// ---------------------------------------------------------------------------------------------

const voterColumns = ['address', 'voter']
const powerColumns = ['voting_power', 'vp', 'votingPower']

function parseCsvVotes(text: string, file: string): AuditVote[] {
  let rows: { record: Record<string, string>; info: { lines: number } }[]
  try {
    rows = parseCsv(text, { columns: true, info: true, bom: true, skip_empty_lines: true, trim: true }) as typeof rows
  } catch (error) {
    const line = (error as { lines?: number }).lines
    throw new VotesFileError({ file, line, reason: 'the CSV cannot be read.', cause: error })
  }
  if (rows.length === 0) return []
  const columns = Object.keys(rows[0]!.record)
  const voterColumn = voterColumns.find((name) => columns.includes(name))
  const powerColumn = powerColumns.find((name) => columns.includes(name))
  const weightColumns = columns.filter((name) => /^choice\.\d+$/.test(name))
  const missing = [
    voterColumn ? undefined : 'address',
    columns.includes('choice') || weightColumns.length ? undefined : 'choice',
    powerColumn ? undefined : 'voting_power',
  ].filter(Boolean)
  if (missing.length) {
    throw new VotesFileError({ file, line: 1, field: missing[0], reason: `the header has no "${missing.join('", "')}" column (it has: ${columns.join(', ')}).` })
  }
  return rows.map(({ record, info }) => {
    const line = info.lines
    const at = (field: string, reason: string) => new VotesFileError({ file, line, field, reason })
    const choice = columns.includes('choice') && record.choice !== '' ? readCsvChoice(record.choice!, at) : readWeights(record, weightColumns, at)
    const created = record.timestamp ?? record.created
    return {
      voter: readVoter(record[voterColumn!], (reason) => at(voterColumn!, reason)),
      choice,
      votingPower: readPower(record[powerColumn!], (reason) => at(powerColumn!, reason)),
      created: created === undefined || created === '' ? undefined : readCreated(created, (reason) => at('timestamp', reason)),
      id: record.author_ipfs_hash || record.id || undefined,
      reason: record.reason || undefined,
      line,
    }
  })
}

function readCsvChoice(value: string, at: (field: string, reason: string) => VotesFileError): VoteChoice {
  const trimmed = value.trim()
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(trimmed)
    } catch {
      throw at('choice', `"${trimmed.slice(0, 60)}" is not a choice: a number, a JSON list of numbers, or a JSON object of weights.`)
    }
    return checkChoice(parsed, (reason) => at('choice', reason))
  }
  return checkChoice(Number(trimmed === '' ? Number.NaN : trimmed), (reason) => at('choice', reason))
}

function readWeights(record: Record<string, string>, columns: string[], at: (field: string, reason: string) => VotesFileError): VoteChoice {
  const weights: Record<string, number> = {}
  for (const column of columns) {
    const raw = record[column]?.trim() ?? ''
    if (raw === '' || raw === '0') continue
    const weight = Number(raw)
    if (!Number.isFinite(weight) || weight < 0) throw at(column, `"${raw.slice(0, 40)}" is not a weight (a number 0 or more).`)
    weights[column.slice('choice.'.length)] = weight
  }
  if (Object.keys(weights).length === 0) throw at('choice', 'the vote gives no choice a weight.')
  return weights
}

// ---------------------------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------------------------

function parseJsonVotes(text: string, file: string): AuditVote[] {
  const errors: ParseError[] = []
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false })
  const lineAt = lineIndex(text)
  if (errors.length || !root) {
    const first = errors[0]
    throw new VotesFileError({
      file,
      line: first ? lineAt(first.offset) : 1,
      reason: `the JSON cannot be read (${first ? printParseErrorCode(first.error) : 'empty file'}).`,
    })
  }
  const list = findVoteList(root)
  if (!list) {
    throw new VotesFileError({ file, line: lineAt(root.offset), reason: 'expected an array of votes, or an object with "votes" (or "data.votes").' })
  }
  return (list.children ?? []).map((node, index) => {
    const line = lineAt(node.offset)
    const at = (field: string, reason: string) => new VotesFileError({ file, line: lineAt(property(node, field)?.offset ?? node.offset), field: `votes[${index}].${field}`, reason })
    if (node.type !== 'object') throw new VotesFileError({ file, line, field: `votes[${index}]`, reason: 'a vote must be an object.' })
    const value = (name: string) => {
      const found = property(node, name)
      return found ? nodeValue(found) : undefined
    }
    const voterField = ['voter', 'address'].find((name) => property(node, name)) ?? 'voter'
    const powerField = ['vp', 'voting_power', 'votingPower'].find((name) => property(node, name)) ?? 'vp'
    const choice = value('choice')
    if (choice === undefined) throw at('choice', 'the vote has no choice.')
    const created = value('created') ?? value('timestamp')
    const id = value('id') ?? value('ipfs')
    const reason = value('reason')
    return {
      voter: readVoter(value(voterField), (why) => at(voterField, why)),
      choice: checkChoice(choice, (why) => at('choice', why)),
      votingPower: readPower(value(powerField), (why) => at(powerField, why)),
      created: created === undefined ? undefined : readCreated(created, (why) => at('created', why)),
      id: typeof id === 'string' && id !== '' ? id : undefined,
      reason: typeof reason === 'string' && reason !== '' ? reason : undefined,
      line,
    }
  })
}

function findVoteList(root: Node): Node | undefined {
  if (root.type === 'array') return root
  if (root.type !== 'object') return undefined
  const votes = property(root, 'votes')
  if (votes?.type === 'array') return votes
  const data = property(root, 'data')
  const nested = data && property(data, 'votes')
  return nested?.type === 'array' ? nested : undefined
}

/** The value node of `name` in an object node. */
function property(node: Node, name: string): Node | undefined {
  if (node.type !== 'object') return undefined
  for (const pair of node.children ?? []) {
    const [key, value] = pair.children ?? []
    if (key?.value === name) return value
  }
  return undefined
}

function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'array':
      return (node.children ?? []).map(nodeValue)
    case 'object':
      return Object.fromEntries((node.children ?? []).map((pair) => [String(pair.children?.[0]?.value), pair.children?.[1] ? nodeValue(pair.children[1]) : undefined]))
    default:
      return node.value
  }
}

/** Maps a character offset to its 1-based line. */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0]
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1)
  return (offset) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (starts[middle]! <= offset) low = middle
      else high = middle - 1
    }
    return low + 1
  }
}

// ---------------------------------------------------------------------------------------------
// Fields, shared by both formats
// ---------------------------------------------------------------------------------------------

function readVoter(value: unknown, fail: (reason: string) => VotesFileError): Address {
  if (typeof value !== 'string' || value.trim() === '') throw fail('the voter address is missing.')
  const trimmed = value.trim()
  if (!isValidAddress(trimmed)) throw fail(`"${trimmed.slice(0, 60)}" is not an address (0x and 40 hex characters, EIP-55 when mixed case).`)
  return checksumAddress(trimmed)
}

function readPower(value: unknown, fail: (reason: string) => VotesFileError): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) {
    throw fail(`${value === undefined || value === '' ? 'the voting power is missing' : `"${String(value).slice(0, 40)}" is not a voting power`} (a number 0 or more).`)
  }
  return number
}

function readCreated(value: unknown, fail: (reason: string) => VotesFileError): number {
  const number = typeof value === 'string' ? Number(value) : value
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) throw fail(`"${String(value).slice(0, 40)}" is not a Unix time in seconds.`)
  return number
}

function checkChoice(value: unknown, fail: (reason: string) => VotesFileError): VoteChoice {
  const isIndex = (item: unknown): item is number => typeof item === 'number' && Number.isSafeInteger(item) && item >= 1
  if (isIndex(value)) return value
  if (Array.isArray(value)) {
    if (value.length === 0) throw fail('the vote chooses nothing (an empty list).')
    if (!value.every(isIndex)) throw fail('a list of choices holds only choice numbers (1 or more).')
    return value
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
    if (entries.length === 0) throw fail('the vote gives no choice a weight.')
    for (const [key, weight] of entries) {
      if (!/^[1-9]\d*$/.test(key) || typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
        throw fail(`weights map choice numbers (1 or more) to numbers 0 or more; "${key}" does not.`)
      }
    }
    return value as Record<string, number>
  }
  throw fail(`"${String(value).slice(0, 40)}" is not a choice: a choice number (1 or more), a list of them, or weights.`)
}

/** Options of {@link latestVotePerVoter}. */
export type LatestVotePerVoterOptions = {
  /** Where the votes were read (the hub's URL, or the votes file), named by the error. */
  source?: string | undefined
}

/**
 * One vote per voter, as Snapshot counts them: a voter who voted again is counted by their latest
 * vote (the greatest `created`). The hub lists every vote it received, so a voter under two vote
 * ids would otherwise be counted twice. Votes of one voter at the same latest time (or without
 * times) follow the one rule for duplicated rows (src/rules/rows.ts): votes that say the same
 * (choice, voting power, time; voter in any casing) count once; votes that differ are an error,
 * never decided by the order in which they were read.
 *
 * @returns the votes kept, in the order read, and how many earlier votes were dropped.
 * @throws {SnapshotHubError} naming the source and the voter when one voter has two different
 * votes at one time.
 * @example
 * import { latestVotePerVoter } from 'personhood/audit'
 * const { votes, duplicates } = latestVotePerVoter(await hub.getVotes({ proposal }))
 */
export function latestVotePerVoter(votes: readonly AuditVote[], options: LatestVotePerVoterOptions = {}): { votes: AuditVote[]; duplicates: number } {
  const latest = new Map<string, number[]>()
  votes.forEach((vote, index) => {
    const key = vote.voter.toLowerCase()
    const kept = latest.get(key)
    const keptAt = kept === undefined ? undefined : (votes[kept[0]!]!.created ?? 0)
    if (kept === undefined || (vote.created ?? 0) > keptAt!) latest.set(key, [index])
    else if ((vote.created ?? 0) === keptAt) kept.push(index)
  })
  const keep = new Set<number>()
  for (const indices of latest.values()) {
    const tied = indices.map((index) => votes[index]!)
    try {
      uniqueRowsByAddress(tied, {
        source: options.source ?? 'votes',
        addressOf: (vote) => vote.voter,
        fingerprint: (vote) => rowFingerprint({ choice: vote.choice, votingPower: vote.votingPower, created: vote.created ?? null }),
      })
    } catch (error) {
      if (!(error instanceof ConflictingRowsError)) throw error
      throw new SnapshotHubError({
        url: options.source ?? 'votes',
        reason: `voter ${checksumAddress(error.address.toLowerCase())} has two different votes at the same time (${tied.map((vote) => vote.id ?? '?').join(', ')}): which one Snapshot counts cannot be told.`,
        cause: error,
      })
    }
    // Identical votes: keep the one with the least id, whatever the order they were read in.
    const chosen = indices.reduce((best, index) => (String(votes[index]!.id ?? '') < String(votes[best]!.id ?? '') ? index : best))
    keep.add(chosen)
  }
  return { votes: votes.filter((_, index) => keep.has(index)), duplicates: votes.length - keep.size }
}
