/**
 * The blocklist said (issue #27, point 5): Human ID's app and API consult an off-chain blocklist the
 * chain cannot show, so `personhood verify` says so wherever a Human ID credential counts, and the
 * audit's methodology and the strategies' READMEs say it too.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { formatVerifyReport, type VerifyReport } from '../../src/cli/verify.js'

const report = (valid: boolean) =>
  ({
    address: '0x52908400098527886E0F7030069857D2E4169EE7',
    network: '10',
    snapshot: { blockNumber: 1000, timestamp: 1_750_000_000 },
    sources: [{ source: 'human-id', verdicts: [{ credential: 'gov-id', valid, reason: valid ? 'valid' : 'none', expiresAt: null }] }],
    unanswered: [],
    decision: { eligible: valid, method: valid ? 'gov-id' : undefined },
    words: { headline: valid ? 'Counted.' : 'Not counted.', reasons: [], nextSteps: [] },
  }) as unknown as VerifyReport

describe('the off-chain blocklist is said where a verdict meets the app', () => {
  test('verify: a Human ID credential that counts carries the note; a 0 does not need it', () => {
    expect(formatVerifyReport(report(true)).at(-1)).toBe(
      "Note: Human ID's app and API first consult an off-chain blocklist and may refuse an address the chain still counts: the strategies (and this package) read the chain, which cannot show that list.",
    )
    expect(formatVerifyReport(report(false)).join('\n')).not.toContain('blocklist')
  })

  test.each(['strategies/human-id/README.md', 'strategies/human-verification/README.md', 'src/audit/report/html.ts'])('%s says it', (file) => {
    expect(readFileSync(file, 'utf8')).toMatch(/off-chain blocklist/)
  })
})
