/** The public constants of the world generator: the custom action id, the wallet limits and the mix of the population. */

/**
 * The custom action id of the world's `custom-action` verifications (app-specific uniqueness).
 *
 * @example
 * world.verifications.filter((v) => v.actionId === demoCustomActionId) // valid only when asked for this action
 */
export const demoCustomActionId = '987654321'

/**
 * The smallest and largest number of wallets {@link generateWorld} accepts.
 *
 * @example
 * generateWorld({ wallets: worldWalletLimits.min, now }) // the smallest world that holds every case
 */
export const worldWalletLimits = { min: 50, max: 100_000 } as const

/**
 * The mix of the generated population: the probabilities {@link generateWorld} draws with. With the
 * default seed and 1,000 wallets they give about 20% of wallets passing the default scorer
 * (threshold 20) before dedup.
 *
 * Every generated wallet outside the sybil clusters gets a persona. A persona scales how often the
 * wallet holds each stamp (the catalogue gives each stamp's share among regular wallets), how old its
 * stamps are, and the odds of its verifications, attestations, model scores and stakes.
 *
 * @example
 * console.table(worldMix.personas) // { power: 0.24, regular: 0.5, newcomer: 0.18, dormant: 0.08 }
 */
export const worldMix = {
  /** Shares of the personas among generated wallets outside the sybil clusters. */
  personas: { power: 0.24, regular: 0.5, newcomer: 0.18, dormant: 0.08 },
  /** How much more often than a regular wallet a persona holds each stamp. */
  stampMultiplier: { power: 3.2, regular: 1.2, newcomer: 0.35, dormant: 1.2 },
  /** A non-dormant wallet refreshed its stamps 0.5-85 days ago; a dormant one 95-400 days ago (all expired). */
  refreshDays: { active: [0.5, 85], dormant: [95, 400] },
  /** Share of a non-dormant wallet's stamps issued 92-200 days ago (so expired). */
  oldStampShare: 0.06,
  /** Share of stamps signed by the untrusted issuer (dropped before scoring). */
  untrustedIssuerShare: 0.007,
  /** Share of stamps signed by the previous (rotated, still trusted) issuer. */
  rotatedIssuerShare: 0.15,
  /** Share of wallets holding a second credential of a provider they already hold (only the first counts). */
  duplicateProviderShare: 0.03,
  /** Sybil clusters: one per 60 wallets (at least 3), 3-8 wallets each, sharing 3-6 farmable credentials. */
  sybilClusters: { walletsPerCluster: 60, minClusters: 3, size: [3, 8], sharedCredentials: [3, 6] },
  /** Share of wallets with 1-3 past score requests (A1 mostly, some C2), spread over the scorers. */
  scoreEventShare: 0.35,
  /** Share of each persona holding a Human ID credential. */
  verifications: {
    'gov-id': { power: 0.15, regular: 0.05, newcomer: 0.02, dormant: 0.04 },
    phone: { power: 0.12, regular: 0.05, newcomer: 0.03, dormant: 0.03 },
    biometrics: { power: 0.06, regular: 0.02, newcomer: 0.01, dormant: 0.01 },
  },
  /** What a random verification is (biometrics has no legacy store: its legacy share is valid). */
  verificationKinds: { valid: 0.8, expired: 0.12, revoked: 0.03, 'legacy-store': 0.05 },
  /** Share of wallets also holding a sandbox SBT on Base Sepolia. */
  sandboxShare: 0.01,
  /** Share of each persona holding a valid clean-hands attestation; a fifth of them also an expired one. */
  attestations: { power: 0.08, regular: 0.025, newcomer: 0.01, dormant: 0.02 },
  attestationRenewalShare: 0.2,
  /** Model scores: share with an aggregate score, share of -1 among them, share with each other model. */
  modelScores: { aggregate: 0.75, insufficientData: 0.07, otherModel: 0.3 },
  /** Shares of wallets with a self stake (power users, others), a community stake, a v1 round stake, accepted terms. */
  stakes: { selfPower: 0.12, selfOther: 0.03, community: 0.02, rounds: 0.015 },
  tosShare: 0.04,
} as const
