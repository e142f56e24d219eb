import { describe, expect, it } from 'vitest'
import { blockNotServedPattern, hubClocks, hubClockStep, type HubClockRead } from './hub.js'

const clock = hubClocks['10']
/** The snapshot's time and the block the clock puts there. */
const time = clock.timestamp + 1_000_001
const clockBlock = clock.block + 500_000
const onClock = clock.timestamp + 500_000 * 2

describe('hubClockStep', () => {
  const cases: [string, HubClockRead, ReturnType<typeof hubClockStep>][] = [
    ['the block where the clock puts it, the last at or before the time', { block: { number: clockBlock, timestamp: onClock } }, { step: 'use' }],
    ['the clock\'s block at another time: the chain left its clock', { block: { number: clockBlock, timestamp: onClock + 1 } }, { step: 'search', offClock: true }],
    ['another block than asked (a node answering its head)', { block: { number: clockBlock - 1, timestamp: onClock - 2 } }, { step: 'search', offClock: false }],
    ['no state at the block: geth', { failure: ['header not found'] }, { step: 'search', offClock: false }],
    ['no state at the block: hardhat', { failure: ['Received invalid block tag 123. Latest block number is 100'] }, { step: 'search', offClock: false }],
    ['no state at the block: pruned, named in a wrapped message', { failure: ['human-id: the reader call 1 of 1 failed', 'missing trie node 9a3f (path )'] }, { step: 'search', offClock: false }],
    ['a refused connection says nothing about the block', { failure: ['connection refused'] }, { step: 'fail' }],
    ['a timeout says nothing about the block', { failure: ["no answer within the provider's 25000 ms"] }, { step: 'fail' }],
    ['a revert says nothing about the block', { failure: ['execution reverted'] }, { step: 'fail' }],
    ['a failure without a message', { failure: [] }, { step: 'fail' }],
  ]
  it.each(cases)('%s', (_name, first, step) => {
    expect(hubClockStep(clock, clockBlock, time, first)).toEqual(step)
  })

  it('the pattern is case-insensitive', () => {
    expect(blockNotServedPattern.test('Header Not Found')).toBe(true)
  })
})
