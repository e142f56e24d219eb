import { describe, expect, test } from 'vitest'
import { formatDemoReport, runDemo } from '../../src/cli/demo.js'

const worldNow = '2025-06-01T00:00:00.000Z'
const now = () => Date.parse(worldNow) + 12 * 3600 * 1000

describe('personhood demo', () => {
  test('every demo story is answered as the world describes it, over real HTTP', async () => {
    const report = await runDemo({ wallets: 200, worldNow, now })
    const byStory = Object.fromEntries(report.accounts.map((account) => [account.story, account]))

    expect(byStory['passing-stamps']).toMatchObject({ passingScore: true, dedupedStamps: 0 })
    expect(Number(byStory['passing-stamps']!.score)).toBeGreaterThanOrEqual(20)

    expect(byStory['gov-id-verified']).toMatchObject({ passingScore: false, verifications: { 'gov-id': true } })

    expect(byStory['clean-hands-only']).toMatchObject({ score: '0.00000', cleanHands: true })

    // the sybil's weights sum above 20, but every stamp was claimed first by its farm
    expect(byStory.sybil).toMatchObject({ score: '0.00000', passingScore: false, cleanHands: false })
    expect(byStory.sybil!.dedupedStamps).toBeGreaterThan(0)

    expect(byStory.nothing).toEqual(
      expect.objectContaining({
        score: '0.00000',
        passingScore: false,
        modelScore: -1,
        cleanHands: false,
        verifications: { 'gov-id': false, phone: false, biometrics: false },
      }),
    )

    expect(report.signIn).toMatchObject({ story: 'passing-stamps', matchesA1: true })
    expect(report.votingStrategy.addresses).toBe(200)
    expect(report.votingStrategy.verified).toBeGreaterThan(0)
    expect(report.votingStrategy.verified).toBeLessThan(200)
    expect(report.votingStrategy.requests).toBeGreaterThanOrEqual(2) // 200 addresses do not fit one 8 KB URL

    const text = formatDemoReport(report).join('\n')
    expect(text).toContain('sybil')
    // whole addresses, ready to paste into the next command
    for (const account of report.accounts) expect(text).toMatch(new RegExp(`\\b${account.address}\\b`))
    expect(text).toContain('the same as the stamp score.')
  })
})
