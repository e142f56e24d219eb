import { describe, expect, test } from 'vitest'
import { parseVotes, latestVotePerVoter } from '../../src/audit/votes.js'
import { SnapshotHubError, VotesFileError } from '../../src/errors/audit.js'
import { failure } from '../helpers/async.js'

const a = '0x52908400098527886E0F7030069857D2E4169EE7'
const b = '0x8617E340B3D01FA5F11F306F4090FD50E238070D'
const bLower = b.toLowerCase()

function fails(text: string, file: string) {
  try {
    parseVotes({ text, file })
  } catch (error) {
    return error as VotesFileError
  }
  throw new Error('expected parseVotes to throw')
}

describe('parseVotes: CSV (a Snapshot vote export)', () => {
  test('reads the export: address, choice, voting_power, timestamp, author_ipfs_hash, reason', () => {
    const text = [
      'address,choice,voting_power,timestamp,author_ipfs_hash,reason',
      `${a},1,12.5,1700000000,bafkreia,"for, obviously"`,
      `${bLower},2,3,1700000100,bafkreib,`,
    ].join('\n')
    expect(parseVotes({ text, file: 'votes.csv' })).toEqual([
      { voter: a, choice: 1, votingPower: 12.5, created: 1700000000, id: 'bafkreia', reason: 'for, obviously', line: 2 },
      { voter: b, choice: 2, votingPower: 3, created: 1700000100, id: 'bafkreib', reason: undefined, line: 3 },
    ])
  })

  test('reads weighted votes from choice.N columns, and JSON choices in the choice column', () => {
    const text = ['address,choice.1,choice.2,choice.3,voting_power', `${a},1,0,3,10`].join('\n')
    expect(parseVotes({ text, file: 'w.csv' })[0]?.choice).toEqual({ 1: 1, 3: 3 })
    const approval = ['address,choice,voting_power', `${a},"[1,3]",10`].join('\n')
    expect(parseVotes({ text: approval, file: 'a.csv' })[0]?.choice).toEqual([1, 3])
  })

  test('names the line and field of a malformed address, choice or voting power', () => {
    const bad = (row: string) => fails(['address,choice,voting_power', `${a},1,1`, row].join('\n'), 'votes.csv')
    expect(bad('0x1234,1,1')).toMatchObject({ name: 'VotesFileError', line: 3, field: 'address' })
    expect(bad(`${b},zero,1`)).toMatchObject({ line: 3, field: 'choice' })
    expect(bad(`${b},0,1`)).toMatchObject({ line: 3, field: 'choice' })
    expect(bad(`${b},1,-4`)).toMatchObject({ line: 3, field: 'voting_power' })
    expect(bad(`${b},1,`)).toMatchObject({ line: 3, field: 'voting_power' })
  })

  test('a missing column is named with the header line', () => {
    const error = fails(['address,vote', `${a},1`].join('\n'), 'votes.csv')
    expect(error).toBeInstanceOf(VotesFileError)
    expect(error).toMatchObject({ line: 1, field: 'choice' })
    expect(error.shortMessage).toContain('has no "choice", "voting_power" column')
  })

  test('a voter twice is refused, naming both lines', () => {
    const error = fails(['address,choice,voting_power', `${a},1,1`, `${a.toLowerCase()},2,1`].join('\n'), 'votes.csv')
    expect(error).toMatchObject({ line: 3, field: 'voter' })
    expect(error.shortMessage).toContain('also on line 2')
  })

  test('an unreadable CSV (unbalanced quote) names the line', () => {
    const error = fails(['address,choice,voting_power', `${a},1,1`, `${b},"1,1`].join('\n'), 'votes.csv')
    expect(error).toMatchObject({ name: 'VotesFileError' })
    expect(error.line).toBeGreaterThanOrEqual(3)
  })
})

describe('parseVotes: JSON', () => {
  test('reads hub votes as an array, inside { votes }, or a GraphQL answer', () => {
    const votes = [
      { id: '0xaa', voter: a, choice: 1, vp: 12.5, created: 1700000000 },
      { id: '0xbb', voter: bLower, choice: [2, 1], vp: 3, created: 1700000100, reason: 'why not' },
    ]
    const expected = [
      { voter: a, choice: 1, votingPower: 12.5, created: 1700000000, id: '0xaa', reason: undefined },
      { voter: b, choice: [2, 1], votingPower: 3, created: 1700000100, id: '0xbb', reason: 'why not' },
    ]
    for (const shape of [votes, { votes }, { data: { votes } }]) {
      const parsed = parseVotes({ text: JSON.stringify(shape, null, 2), file: 'votes.json' })
      expect(parsed.map(({ line: _line, ...vote }) => vote)).toEqual(expected)
    }
  })

  test('names the line and field of a bad vote', () => {
    const text = `[\n  { "voter": "${a}", "choice": 1, "vp": 1 },\n  {\n    "voter": "${b}",\n    "choice": 1,\n    "vp": "lots"\n  }\n]`
    const error = fails(text, 'votes.json')
    expect(error).toMatchObject({ name: 'VotesFileError', line: 6, field: 'votes[1].vp' })
  })

  test('a syntax error names its line', () => {
    const error = fails(`[\n  { "voter": "${a}", "choice": 1, "vp": 1 },\n  { "voter": \n]`, 'votes.json')
    expect(error).toMatchObject({ name: 'VotesFileError', line: 4 })
  })

  test('JSON that is not a list of votes is refused', async () => {
    expect(fails('{"proposal": "x"}', 'votes.json').shortMessage).toContain('expected an array of votes')
    const error = await failure(Promise.resolve().then(() => parseVotes({ text: '[1]', file: 'v.json' })))
    expect(error).toMatchObject({ field: 'votes[0]' })
  })
})

describe('latestVotePerVoter', () => {
  test('a voter under two vote ids counts once, by the latest vote (as Snapshot counts)', () => {
    const a = '0x52908400098527886E0F7030069857D2E4169EE7' as const
    const b = '0x8617E340B3D01FA5F11F306F4090FD50E238070D' as const
    const { votes, duplicates } = latestVotePerVoter([
      { voter: a, choice: 1, votingPower: 10, created: 100, id: 'first' },
      { voter: b, choice: 2, votingPower: 3, created: 150, id: 'other' },
      { voter: a.toLowerCase() as typeof a, choice: 2, votingPower: 500, created: 200, id: 'second' },
    ])
    expect(votes.map((vote) => vote.id)).toEqual(['other', 'second'])
    expect(votes.reduce((total, vote) => total + vote.votingPower, 0)).toBe(503)
    expect(duplicates).toBe(1)
  })

  test('two different votes of one voter at the same latest time are an error naming the source and the voter, in either order', () => {
    const a = '0x52908400098527886E0F7030069857D2E4169EE7' as const
    const one = { voter: a, choice: 1, votingPower: 10, created: 200, id: 'one' }
    const two = { voter: a.toLowerCase() as typeof a, choice: 2, votingPower: 500, created: 200, id: 'two' }
    for (const votes of [[one, two], [two, one]]) {
      let error: unknown
      try {
        latestVotePerVoter(votes, { source: 'https://hub.snapshot.org/graphql' })
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(SnapshotHubError)
      expect((error as SnapshotHubError).url).toBe('https://hub.snapshot.org/graphql')
      expect((error as SnapshotHubError).shortMessage).toContain(`voter ${a} has two different votes at the same time`)
    }
  })

  test('the same vote under two ids and casings counts once, the same one whatever the order', () => {
    const a = '0x52908400098527886E0F7030069857D2E4169EE7' as const
    const one = { voter: a, choice: 1, votingPower: 10, created: 200, id: 'one' }
    const two = { ...one, voter: a.toLowerCase() as typeof a, id: 'two' }
    for (const votes of [[one, two], [two, one]]) expect(latestVotePerVoter(votes)).toEqual({ votes: [one], duplicates: 1 })
  })
})
