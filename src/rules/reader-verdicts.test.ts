import { describe, expect, it } from 'vitest'
import { judgeReaderCredential } from './reader-verdicts.js'
import { issuers } from './sbt.js'

const voter = '0x00000000000000000000000000000000000000aa'
const at = 1_700_000_000n
// reader.sol's SBT flags: read (1), getSBT answered (2), public values (16), issuer (32) and action (64) as expected.
const valid = { flags: 1 | 2 | 16 | 32 | 64 }
// getSBT reverted, sbtOwners' expiry 0 (16): no SBT.
const none = { flags: 1 | 16 }
const credential = (records: Parameters<typeof judgeReaderCredential>[0]['records'], store?: string) =>
  judgeReaderCredential({ records, credential: 'gov-id', at, voter, actionId: 123456789n, issuers, store })

describe('judgeReaderCredential', () => {
  it('a valid SBT of its own: the zk-passport SBT and the store are not consulted', () => {
    const judged = credential({ primary: valid, passport: { flags: 0 } }, '0xstore')
    expect(judged).toMatchObject({ verdict: { valid: true, reason: 'valid' }, passport: undefined, legacy: undefined })
  })

  it('else the zk-passport SBT, else the permanent store when one was asked', () => {
    expect(credential({ primary: none, passport: valid }, '0xstore')).toMatchObject({ verdict: { valid: true, reason: 'valid' }, legacy: undefined })
    expect(credential({ primary: { flags: none.flags | 256 | 512 }, passport: none }, '0xstore')).toMatchObject({ verdict: { valid: true, reason: 'legacy' }, legacy: true })
    expect(credential({ primary: none, passport: none })).toMatchObject({ verdict: { valid: false, reason: 'none' }, legacy: undefined })
  })

  it('a record the reader skipped, or a hub that contradicts itself, is a problem', () => {
    expect(credential({ primary: none, passport: none }, '0xstore')).toEqual({ problem: 'The reader skipped the permanent gov-id store 0xstore.' })
    expect(credential({ primary: { flags: 0 } })).toEqual({ problem: 'The reader skipped the gov-id SBT.' })
    expect(credential({ primary: none, passport: { flags: 0 } })).toEqual({ problem: 'The reader skipped the zk-passport SBT.' })
    // getSBT reverted while sbtOwners shows a live SBT.
    expect(credential({ primary: { flags: 1 } })).toEqual({
      problem: `The Human ID Hub contradicts itself on the gov-id SBT: getSBT reverted, but sbtOwners shows a live SBT (expiry ${at}, not revoked) at block timestamp ${at}.`,
    })
  })
})
