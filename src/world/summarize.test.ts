import { describe, expect, test } from 'vitest'
import { generateWorld } from './generate/index.js'
import { summarizeWorld } from './summarize.js'

describe('summarizeWorld', () => {
  const world = generateWorld({ now: '2025-06-01T00:00:00.000Z' })
  const summary = summarizeWorld(world)

  test('counts add up', () => {
    expect(summary.wallets.total).toBe(1000)
    expect(summary.wallets.withStamps + summary.wallets.withoutStamps).toBe(1000)
    expect(Object.values(summary.wallets.byStampCount).reduce((a, b) => a + b, 0)).toBe(1000)
    expect(summary.stamps.total).toBe(world.wallets.reduce((n, w) => n + w.stamps.length, 0))
    expect(Object.values(summary.verifications.byKind).reduce((a, b) => a + b, 0)).toBe(world.verifications.length)
    expect(Object.values(summary.verifications.byCredential).reduce((a, b) => a + b, 0)).toBe(world.verifications.length)
    expect(Object.values(summary.attestations.byKind).reduce((a, b) => a + b, 0)).toBe(world.attestations.length)
    expect(Object.values(summary.modelScores.byModel).reduce((a, b) => a + b, 0)).toBe(world.modelScores.length)
    expect(summary.demoAccounts).toHaveLength(5)
  })

  test('reports the adversarial content', () => {
    expect(summary.stamps.expired).toBeGreaterThan(0)
    expect(summary.stamps.sharedHashes).toBeGreaterThan(0)
    expect(summary.stamps.walletsWithSharedHashes).toBe(summary.sybilClusters.wallets)
    expect(summary.stamps.untrustedIssuer).toBeGreaterThan(0)
    expect(summary.modelScores.insufficientData).toBeGreaterThan(0)
    expect(summary.scoring.passingRatio).toBeCloseTo(summary.scoring.passingBeforeDedup / 1000, 3)
    for (const count of Object.values(summary.attestations.byKind)) expect(count).toBeGreaterThan(0)
    for (const count of Object.values(summary.verifications.byKind)) expect(count).toBeGreaterThan(0)
  })

  test('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(summary))).toStrictEqual(summary)
  })
})
